import Bindings
import TrackcastCore

/// The keyboard shortcuts window (Ctrl+?), listing the accelerators the
/// application sets on its actions.
@MainActor
enum ShortcutsView {
    static func make(transientFor parent: ApplicationWindow?) -> ShortcutsWindow {
        ShortcutsWindow(transientFor: parent, groups: [
            .init(title: tr("Playback"), shortcuts: [
                .init(title: tr("Play or Pause"), accelerator: "space"),
                .init(title: tr("Skip Forward"), accelerator: "Right"),
                .init(title: tr("Skip Back"), accelerator: "Left"),
                .init(title: tr("Picture-in-Picture"), accelerator: "p"),
                .init(title: tr("Fullscreen"), accelerator: "f"),
            ]),
            .init(title: tr("General"), shortcuts: [
                .init(title: tr("Add Podcast"), accelerator: "<Control>n"),
                .init(title: tr("Search Library"), accelerator: "<Control>f"),
                .init(title: tr("Refresh Podcasts"), accelerator: "<Control>r"),
                .init(title: tr("Back to the Library"), accelerator: "<Alt>Left Escape"),
                .init(title: tr("Preferences"), accelerator: "<Control>comma"),
                .init(title: tr("Keyboard Shortcuts"), accelerator: "<Control>question"),
                .init(title: tr("Close Window"), accelerator: "<Control>w"),
                .init(title: tr("Quit"), accelerator: "<Control>q"),
            ]),
        ])
    }
}
