import Foundation
import TestSupport
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    @Suite("Chapters in containers", .needs("ffmpeg"))
    struct ChapterContainerTests {
        @MainActor @Test("Matroska chapters (GStreamer's table of contents) and Ogg Opus chapters (Vorbis comments) reach the probe and the playing item",
              arguments: [ChapteredMedia.Container.mkv, .opus])
        func containerChapters(container: ChapteredMedia.Container) async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-chapters-\(UUID()).\(container)")
            defer { try? FileManager.default.removeItem(at: file) }
            try await ChapteredMedia.write(container, seconds: 6, chapters: [.init(0, "Opening"), .init(2, "Middle part"),
                                                                               .init(4.5, "Ende – Schluss")], to: file)
            let asset = try await AssetLoader(timeout: .seconds(10)).load(file.absoluteString)
            #expect(asset.chapters.map(\.start) == [.zero, .seconds(2), .milliseconds(4500)])
            #expect(asset.chapters.map(\.title) == ["Opening", "Middle part", "Ende – Schluss"])
            #expect(asset.chapters.map(\.end).prefix(2) == [.seconds(2), .milliseconds(4500)])

            let player = try await TestPlayer()
            _ = try await player.play(file.absoluteString)
            // Ogg's comments are in the pipeline's tags by then; Matroska's table of contents may come with the probe.
            let reached = await player.waitUntil { player.controller.asset?.chapters == asset.chapters }
            #expect(reached, "the playing item's chapters: \(player.controller.asset?.chapters ?? [])")
            player.controller.stop()
        }
    }
}
