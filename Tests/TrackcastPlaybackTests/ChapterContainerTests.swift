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

        @MainActor @Test("an MP3's ID3 CHAP frames reach the playing item whole, from a file and streamed over HTTP alike")
        func id3ChapterFrames() async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-chapters-\(UUID()).mp3")
            defer { try? FileManager.default.removeItem(at: file) }
            try await ChapteredMedia.write(.mp3, seconds: 6, chapters: [.init(0, "Opening"), .init(2, "Middle part"),
                                                                         .init(4.5, "Ende – Schluss")], to: file)
            let server = try TestHTTPServer()
            defer { server.stop() }
            server.route("/episode.mp3", .serve(try Data(contentsOf: file), contentType: "audio/mpeg"))

            var seen: [[[UInt8]]] = []
            for uri in [file.absoluteString, server.url("/episode.mp3")] {
                let player = try await TestPlayer()
                _ = try await player.play(uri)
                let frames = player.controller.asset?.id3ChapterFrames ?? []
                #expect(frames.count == 3, "\(uri)")
                #expect(frames.allSatisfy { $0.starts(with: Array("CHAP".utf8)) }, "\(uri)")
                seen.append(frames)
                player.controller.stop()
            }
            #expect(seen.count == 2 && seen[0] == seen[1])
            #expect(server.log(for: "/episode.mp3").count >= 1)
        }
    }
}
