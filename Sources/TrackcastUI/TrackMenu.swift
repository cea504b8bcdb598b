import Bindings
import TrackcastCore

/// The video controls' track button: a menu of the audio tracks and the
/// subtitle tracks (with "Off") as radio items over `app.audio-track` and
/// `app.subtitle-track`, and "Load Subtitles…". Shown while a video plays.
@MainActor
final class TrackMenu {
    let root = MenuButton(iconName: "media-view-subtitles-symbolic", tooltip: tr("Audio and Subtitles"), menu: Menu())
    private var shown: TrackSelection?

    init() {
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
        subtitles.append(tr("Load Subtitles…"), action: "app.load-subtitles")
        menu.appendSection(subtitles, label: tr("Subtitles"))
        root.setMenu(menu)
    }
}
