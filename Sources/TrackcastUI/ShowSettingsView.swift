import Bindings
import TrackcastCore
import TrackcastLibrary

/// A show's own settings, in the show page's settings popover: its own
/// speed (or the preference's), the seconds of intro and outro to skip, and
/// whether its new episodes download by themselves (`AutoDownloads`).
/// Changes go through the `show-speed`, `show-skip` and `show-auto-download` actions,
/// as they do from D-Bus, so the episode playing follows at once. The
/// stored values are read again each time the popover opens: a speed
/// chosen in the player bar or a D-Bus call may have changed them.
@MainActor
final class ShowSettingsView {
    let popover: Popover
    private let group = PreferencesGroup(title: tr("Playback"))
    private let library: LibraryModel
    private let settings: AppSettings
    private let ownSpeed = Switch()
    private let speed = SpinButton(range: 0.5...3, step: 0.1, digits: 2)
    private let speedRow: ActionRow
    private let intro = SpinButton(range: 0...600, step: 5)
    private let outro = SpinButton(range: 0...600, step: 5)
    private let autoDownload = Switch()
    private var show: ShowID?
    /// Set while the controls take the library's values, so that filling
    /// them in is not taken for the user changing them.
    private var isShowingStoredValues = false

    init(library: LibraryModel, settings: AppSettings) {
        self.library = library
        self.settings = settings
        speedRow = ActionRow(title: tr("Speed"), control: speed)
        group.add(ActionRow(title: tr("Own Speed"), subtitle: tr("Otherwise the speed chosen in Preferences"), control: ownSpeed))
        group.add(speedRow)
        group.add(ActionRow(title: tr("Skip Intro"), subtitle: tr("Seconds skipped at the start of each episode"), control: intro))
        group.add(ActionRow(title: tr("Skip Outro"), subtitle: tr("Seconds skipped at the end of each episode"), control: outro))
        let downloads = PreferencesGroup(title: tr("Downloads"))
        downloads.add(ActionRow(title: tr("Download New Episodes"),
                                subtitle: tr("Episodes a refresh finds are downloaded"), control: autoDownload))
        let groups = Box(.vertical, spacing: 12)
        groups.setMargins(12)
        groups.append(group)
        groups.append(downloads)
        popover = Popover(child: groups)
        popover.onShow { [weak self] in self?.showStoredValues() }

        ownSpeed.onToggled { [weak self] in self?.speedChanged() }
        speed.onValueChanged { [weak self] in self?.speedChanged() }
        intro.onValueChanged { [weak self] in self?.skipsChanged() }
        outro.onValueChanged { [weak self] in self?.skipsChanged() }
        autoDownload.onToggled { [weak self] in self?.autoDownloadChanged() }
    }

    func present(_ show: ShowID) {
        self.show = show
        showStoredValues()
    }

    /// Shows the show's stored settings; the preference's speed stands in for a show without its own.
    private func showStoredValues() {
        guard let show else { return }
        let preferredSpeed = settings.playbackSpeed
        Task { [weak self, library] in
            let stored = await library.showSettings(show) ?? ShowSettings()
            guard let self, self.show == show else { return }
            isShowingStoredValues = true
            ownSpeed.isOn = stored.playbackSpeed != nil
            speed.value = stored.playbackSpeed ?? preferredSpeed
            speedRow.isSensitive = ownSpeed.isOn
            intro.value = stored.skipIntro
            outro.value = stored.skipOutro
            autoDownload.isOn = stored.autoDownload
            isShowingStoredValues = false
            // What the controls show, read back from them.
            Log.debug("show settings shown: own speed \(ownSpeed.isOn) \(speed.value), intro \(intro.value) s, outro \(outro.value) s, auto-download \(autoDownload.isOn ? "on" : "off")")
        }
    }

    private func speedChanged() {
        speedRow.isSensitive = ownSpeed.isOn
        guard !isShowingStoredValues, let show else { return }
        // 0 returns the show to the preference.
        let remembered = ownSpeed.isOn ? speed.value : 0
        group.activateAction("app.show-speed", parameter: Variant(tuple: [Variant(show.rawValue), Variant(remembered)]))
    }

    private func skipsChanged() {
        guard !isShowingStoredValues, let show else { return }
        group.activateAction("app.show-skip", parameter: Variant(tuple: [Variant(show.rawValue), Variant(intro.value),
                                                                         Variant(outro.value)]))
    }

    private func autoDownloadChanged() {
        guard !isShowingStoredValues, let show else { return }
        group.activateAction("app.show-auto-download", parameter: Variant(tuple: [Variant(show.rawValue),
                                                                                  Variant(autoDownload.isOn)]))
    }
}
