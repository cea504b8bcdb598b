import Bindings
import TrackcastCore

/// The video controls' track button: a menu of the audio tracks and the
/// subtitle tracks (with "Off") as radio items over `app.audio-track` and
/// `app.subtitle-track`, and "Load Subtitles…". Shown while a video plays.
@MainActor
final class TrackMenu {
    let root = MenuButton(iconName: "media-view-subtitles-symbolic", tooltip: tr("Audio and Subtitles"), menu: Menu())
    private var shown: TrackSelection?
    private let isSandboxed: Bool

    /// - Parameter isSandboxed: inside Flatpak the menu says why no subtitle
    ///   file beside the video was found: the sandbox sees only the video.
    init(isSandboxed: Bool = Sandbox.isSandboxed()) {
        self.isSandboxed = isSandboxed
        root.addCSSClass("flat")
        render(.none)
    }

    /// Rebuilds the menu when the tracks on offer change (not when only
    /// the choice does: the actions' states check the radio items).
    func render(_ tracks: TrackSelection) {
        var offered = tracks
        offered.currentAudio = nil
        offered.currentSubtitle = nil
        guard offered != shown else { return }
        shown = offered
        root.setMenu(Self.model(tracks, isSandboxed: isSandboxed))
    }

    /// The menu for `tracks` (GIO's menu model alone, no widget).
    static func model(_ tracks: TrackSelection, isSandboxed: Bool) -> Menu {
        let menu = Menu()
        if tracks.audio.count > 1 {
            let audio = Menu()
            for (index, track) in tracks.audio.enumerated() {
                audio.append(track.label(number: index + 1), action: "app.audio-track(\(index))")
            }
            menu.appendSection(audio, label: tr("Audio"))
        }
        let subtitles = Menu()
        subtitles.append(tr("Off"), action: "app.subtitle-track(-1)")
        for (index, track) in tracks.subtitles.enumerated() {
            var label = track.label(number: index + 1)
            // A file beside the video, or loaded by hand, says which.
            if let file = track.fileName { label = String(format: tr("%@ (from %@)"), label, file) }
            subtitles.append(label, action: "app.subtitle-track(\(index))")
        }
        if isSandboxed, !tracks.subtitles.contains(where: { $0.fileName != nil }) {
            subtitles.appendNote(tr("Subtitle files beside the video are not visible inside Flatpak"))
        }
        subtitles.append(tr("Load Subtitles…"), action: "app.load-subtitles")
        menu.appendSection(subtitles, label: tr("Subtitles"))
        // The picture on screen, at the video's own size (`FrameCaptureActions`).
        let frame = Menu()
        frame.append(tr("Copy Frame"), action: "app.copy-frame")
        frame.append(tr("Save Frame…"), action: "app.save-frame")
        menu.appendSection(frame, label: tr("Frame"))
        return menu
    }
}
