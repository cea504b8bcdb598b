import Bindings
import TrackcastCore

/// The preferences window, each control bound both ways to its GSettings key,
/// but the Podcast Index key and secret, which go to the keyring
/// (`PodcastIndexCredentials`). The settings outlive the window: their change
/// handlers are disconnected when it closes, or every opening would leave
/// its widgets behind.
@MainActor
struct PreferencesView {
    private let window: PreferencesWindow
    /// Held while the window is open: their change handlers hold them only weakly.
    private let podcastIndexRows: [EntryRow]
    private let syncPage: SyncPreferences

    init(transientFor parent: ApplicationWindow?, settings: AppSettings, podcastIndex credentials: PodcastIndexCredentials,
         sync: SyncController, showingSync: Bool = false, closed: @escaping @MainActor () -> Void) {
        window = PreferencesWindow(transientFor: parent)
        var connections: [SignalConnection] = []

        let playback = PreferencesGroup(title: tr("Playback"))
        playback.add(Self.spinRow(title: tr("Skip Back"), subtitle: tr("Seconds to jump back"),
                                  key: "skip-backward-seconds", range: 5...300, step: 5, settings: settings,
                                  connections: &connections))
        playback.add(Self.spinRow(title: tr("Skip Forward"), subtitle: tr("Seconds to jump forward"),
                                  key: "skip-forward-seconds", range: 5...300, step: 5, settings: settings,
                                  connections: &connections))
        playback.add(Self.spinRow(title: tr("Playback Speed"), subtitle: tr("Pitch stays natural"),
                                  key: "playback-speed", range: 0.5...3, step: 0.1, digits: 1, settings: settings,
                                  connections: &connections))
        window.add(playback)

        let background = PreferencesGroup(title: tr("Background"))
        background.add(Self.switchRow(title: tr("Keep Playing When Closed"),
                                      subtitle: tr("Closing the window while an episode plays keeps it playing"),
                                      key: "background-playback", fallback: true, settings: settings, connections: &connections))
        window.add(background)

        // Discover searches Podcast Index too once both are set (a free
        // account's key and secret); Apple's directory needs neither.
        let podcastIndex = PreferencesGroup(title: tr("Podcast Index"))
        podcastIndex.setDescription(tr("With the key and secret of a free podcastindex.org account, Discover can search Podcast Index as well as Apple Podcasts"))
        let keyRow = EntryRow(title: tr("API Key"))
        let secretRow = EntryRow(title: tr("API Secret"), secret: true)
        keyRow.text = credentials.typed.key
        secretRow.text = credentials.typed.secret
        podcastIndexRows = [keyRow, secretRow]
        for row in podcastIndexRows {
            row.onChanged { [weak keyRow, weak secretRow] in
                if let keyRow, let secretRow { credentials.set(key: keyRow.text, secret: secretRow.text) }
            }
            podcastIndex.add(row)
        }
        window.add(podcastIndex)

        let video = PreferencesGroup(title: tr("Video"))
        video.add(Self.switchRow(title: tr("Picture-in-Picture When Minimized"),
                                 subtitle: tr("Minimizing the window while a video plays keeps it in a small window on top"),
                                 key: "pip-on-minimize", fallback: false, settings: settings, connections: &connections))
        window.add(video)

        // Adaptive streams (HLS, DASH) choose among their variants under
        // these caps; 0 is no limit. Last, so the rows above keep their
        // places (PodcastIndexPreferencesTests clicks the key's row).
        let dataSaver = PreferencesGroup(title: tr("Data Saver"))
        dataSaver.setDescription(tr("Limits for streams that come in several qualities"))
        for (title, key, isHeight) in [
            (tr("Stream Resolution Limit"), "stream-max-height", true),
            (tr("Stream Bitrate Limit"), "stream-max-bitrate", false),
            (tr("Stream Resolution Limit on Metered Networks"), "metered-stream-max-height", true),
            (tr("Stream Bitrate Limit on Metered Networks"), "metered-stream-max-bitrate", false),
        ] {
            dataSaver.add(Self.spinRow(title: title,
                                       subtitle: isHeight ? tr("Video height in pixels, 0 for none") : tr("Kilobits per second, 0 for none"),
                                       key: key, range: isHeight ? 0...4320 : 0...1_000_000, step: isHeight ? 120 : 100,
                                       settings: settings, connections: &connections))
        }
        dataSaver.add(Self.switchRow(title: tr("Automatic Downloads on Metered Networks"),
                                     subtitle: tr("Otherwise new episodes wait for a network that is not metered"),
                                     key: AutoDownloads.meteredKey, fallback: false, settings: settings,
                                     connections: &connections))
        window.add(dataSaver)

        // After the data saver, for the same reason.
        let updates = PreferencesGroup(title: tr("New Episodes"))
        updates.add(Self.choiceRow(title: tr("Check for New Episodes"),
                                   subtitle: tr("Every show is refreshed while Trackcast runs"),
                                   key: RefreshSchedule.intervalKey, fallback: 1,
                                   choices: [(tr("Every Hour"), 1), (tr("Every 6 Hours"), 6), (tr("Every Day"), 24),
                                             (tr("Only When Asked"), 0)],
                                   settings: settings, connections: &connections))
        window.add(updates)

        window.setFirstPage(title: tr("General"), iconName: "preferences-system-symbolic")
        syncPage = SyncPreferences(sync: sync)
        window.add(syncPage.page)
        if showingSync {
            window.show(syncPage.page)
            syncPage.focusPassword()
        }
        syncPage.onMessage = { [window] in window.showToast($0) }
        window.onCloseRequest { [syncPage] in
            syncPage.close()
            for connection in connections { connection.disconnect() }
            closed()
            return false
        }
    }

    /// A switch bound both ways to the boolean `key`; `fallback` is what the
    /// app assumes without an installed schema.
    private static func switchRow(title: String, subtitle: String, key: String, fallback: Bool, settings: AppSettings,
                                  connections: inout [SignalConnection]) -> ActionRow {
        func stored() -> Bool { (try? settings.settings?.bool(forKey: key)) ?? fallback }
        let toggle = Switch()
        toggle.isOn = stored()
        toggle.onToggled { [weak toggle] in
            if let toggle, toggle.isOn != stored() { settings.set(Variant(toggle.isOn), forKey: key) }
        }
        if let connection = settings.onChange(key, { if toggle.isOn != stored() { toggle.isOn = stored() } }) {
            connections.append(connection)
        }
        return ActionRow(title: title, subtitle: subtitle, control: toggle)
    }

    /// A drop-down of `choices` bound both ways to the integer `key`; a
    /// value set elsewhere (gsettings) that is not a choice shows as the
    /// first choice above it.
    private static func choiceRow(title: String, subtitle: String, key: String, fallback: Int,
                                  choices: [(label: String, value: Int)], settings: AppSettings,
                                  connections: inout [SignalConnection]) -> ActionRow {
        let dropDown = DropDown(choices: choices.map(\.label), accessibleLabel: title, labelledByRow: true)
        func storedIndex() -> Int {
            let value = settings.int(forKey: key, fallback: fallback)
            return choices.firstIndex { $0.value == value }
                ?? choices.indices.filter { choices[$0].value > value }.min { choices[$0].value < choices[$1].value }
                ?? 0
        }
        dropDown.selectedIndex = storedIndex()
        dropDown.onSelectionChanged { [weak dropDown] in
            guard let dropDown, choices.indices.contains(dropDown.selectedIndex), dropDown.selectedIndex != storedIndex()
            else { return }
            settings.set(Variant(Int32(choices[dropDown.selectedIndex].value)), forKey: key)
        }
        if let connection = settings.onChange(key, {
            if dropDown.selectedIndex != storedIndex() { dropDown.selectedIndex = storedIndex() }
        }) {
            connections.append(connection)
        }
        return ActionRow(title: title, subtitle: subtitle, control: dropDown)
    }

    private static func spinRow(title: String, subtitle: String, key: String, range: ClosedRange<Double>,
                                step: Double, digits: UInt32 = 0, settings: AppSettings,
                                connections: inout [SignalConnection]) -> ActionRow {
        let spin = SpinButton(range: range, step: step, digits: digits)
        let isDouble = digits > 0
        func stored() -> Double {
            isDouble ? (try? settings.settings?.double(forKey: key)) ?? 1
                : Double((try? settings.settings?.int(forKey: key)) ?? 0)
        }
        spin.value = stored()
        spin.onValueChanged { [weak spin] in
            guard let spin, spin.value != stored() else { return }
            settings.set(isDouble ? Variant(spin.value) : Variant(Int32(spin.value)), forKey: key)
        }
        if let connection = settings.onChange(key, { if spin.value != stored() { spin.value = stored() } }) {
            connections.append(connection)
        }
        return ActionRow(title: title, subtitle: subtitle, control: spin)
    }

    func present() { window.present() }

    func showToast(_ message: String) {
        Log.debug("preferences toast: \(message)")
        window.showToast(message)
    }
}
