import Bindings
import Testing
import TrackcastCore
@testable import TrackcastUI

/// Inside Flatpak a video's neighbours are out of sight (the document portal
/// hands over the opened file alone), so the track menu says why no subtitle
/// file beside it was found; outside, nothing is said.
@Suite("The track menu inside and outside Flatpak")
@MainActor
struct TrackMenuSandboxTests {
    private let note = tr("Subtitle files beside the video are not visible inside Flatpak")

    @Test("sandboxed with no subtitle file, the menu says files beside the video are out of sight")
    func sandboxedNote() {
        let labels = TrackMenu.model(TrackSelection(), isSandboxed: true).labels
        #expect(labels.contains(note), "\(labels)")
        // The subtitles section ends with loading a file; the frame section follows it.
        #expect(Array(labels.suffix(3)) == [tr("Load Subtitles…"), tr("Copy Frame"), tr("Save Frame…")], "\(labels)")
    }

    @Test("outside a sandbox, or with a subtitle file loaded, no note")
    func noNote() {
        #expect(!TrackMenu.model(TrackSelection(), isSandboxed: false).labels.contains(note))
        let loaded = TrackSelection(subtitles: [.init(isExternal: true, fileName: "film.srt")])
        let labels = TrackMenu.model(loaded, isSandboxed: true).labels
        #expect(!labels.contains(note), "\(labels)")
    }
}
