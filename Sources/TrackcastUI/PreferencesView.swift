import Bindings
import TrackcastCore

/// The preferences window, each control bound both ways to its GSettings key.
@MainActor
struct PreferencesView {
    private let window: PreferencesWindow

    init(transientFor parent: ApplicationWindow?, settings: AppSettings) {
        window = PreferencesWindow(transientFor: parent)

        let playback = PreferencesGroup(title: tr("Playback"))
        playback.add(Self.spinRow(title: tr("Skip Back"), subtitle: tr("Seconds to jump back"),
                                  key: "skip-backward-seconds", range: 5...300, step: 5, settings: settings))
        playback.add(Self.spinRow(title: tr("Skip Forward"), subtitle: tr("Seconds to jump forward"),
                                  key: "skip-forward-seconds", range: 5...300, step: 5, settings: settings))
        playback.add(Self.spinRow(title: tr("Playback Speed"), subtitle: tr("Pitch stays natural"),
                                  key: "playback-speed", range: 0.5...3, step: 0.1, digits: 1, settings: settings))
        window.add(playback)

        let background = PreferencesGroup(title: tr("Background"))
        let keepPlaying = Switch()
        keepPlaying.isOn = settings.backgroundPlayback
        keepPlaying.onToggled { settings.set(Variant(keepPlaying.isOn), forKey: "background-playback") }
        settings.onChange("background-playback") { keepPlaying.isOn = settings.backgroundPlayback }
        background.add(ActionRow(title: tr("Keep Playing When Closed"),
                                 subtitle: tr("Closing the window while an episode plays keeps it playing"),
                                 control: keepPlaying))
        window.add(background)
    }

    private static func spinRow(title: String, subtitle: String, key: String, range: ClosedRange<Double>,
                                step: Double, digits: UInt32 = 0, settings: AppSettings) -> ActionRow {
        let spin = SpinButton(range: range, step: step, digits: digits)
        let isDouble = digits > 0
        func stored() -> Double {
            isDouble ? (try? settings.settings?.double(forKey: key)) ?? 1
                : Double((try? settings.settings?.int(forKey: key)) ?? 0)
        }
        spin.value = stored()
        spin.onValueChanged {
            guard spin.value != stored() else { return }
            settings.set(isDouble ? Variant(spin.value) : Variant(Int32(spin.value)), forKey: key)
        }
        settings.onChange(key) { if spin.value != stored() { spin.value = stored() } }
        return ActionRow(title: title, subtitle: subtitle, control: spin)
    }

    func present() { window.present() }
}
