import Foundation
import TestSupport
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    @Suite("Probing assets")
    struct AssetLoaderTests {
        private let loader = AssetLoader(timeout: .seconds(10), networkTimeout: .seconds(5))

        @Test("duration, streams and tags of an Opus file")
        func opus() async throws {
            let asset = try await loader.load(try await MediaFixtures.shared.url(.opus).absoluteString)
            #expect(abs((asset.duration ?? .zero).seconds - 6) < 0.1)
            #expect(!asset.isLive && asset.isSeekable)
            #expect(asset.tracks.count == 1)
            #expect(asset.tracks.first?.kind == .audio)
            #expect(asset.tracks.first?.codec == "Opus")
            #expect(asset.tracks.first?.channels == 2)
        }

        @Test("title and embedded cover art from an ID3v2 tag")
        func coverArt() async throws {
            let asset = try await loader.load(try await MediaFixtures.shared.url(.coverMP3).absoluteString)
            #expect(asset.title == "Cover Story")
            #expect(asset.artwork == ID3Tag.onePixelPNG)
            #expect(asset.artworkType == "image/png")
        }

        @Test("chapters from the container's table of contents")
        func chapters() async throws {
            let asset = try await loader.load(try await MediaFixtures.shared.url(.cueFLAC).absoluteString)
            #expect(asset.chapters.map(\.start) == [.zero, .seconds(2), .seconds(4)])
            #expect(asset.chapters.map(\.end) == [.seconds(2), .seconds(4), .seconds(6)])
        }

        @Test("video and audio tracks of a WebM file")
        func video() async throws {
            let asset = try await loader.load(try await MediaFixtures.shared.url(.video).absoluteString)
            #expect(asset.hasVideo && asset.hasAudio)
            let video = try #require(asset.tracks.first { $0.kind == .video })
            #expect(video.width == 160 && video.height == 120)
        }

        @Test("cancelling a probe stops it and its download at once")
        func cancellation() async throws {
            let server = try TestHTTPServer()
            server.route("/stalled.mp3", .stall)
            let start = ContinuousClock.now
            let probe = Task { try await loader.load(server.url("/stalled.mp3")) }
            // Wait until the probe is really waiting on the server.
            while !server.requests.contains(where: { $0.hasPrefix("GET /stalled.mp3") }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            probe.cancel()
            await #expect(throws: CancellationError.self) { try await probe.value }
            #expect(ContinuousClock.now - start < .seconds(5), "cancelling took until the probe's own time limit")
            let closed = await waitUntil { PlaybackDiagnostics.probes == 0 }
            #expect(closed, "\(PlaybackDiagnostics.probes) probes still alive")
        }

        /// A local file's probe is left to finish when cancelled (stopped in
        /// the middle, GStreamer 1.22's oggdemux leaks the chain it is
        /// scanning: `PlaybackLeakTests` finds that); the caller must still
        /// hear at once, and the probe must go once it has finished.
        @Test("a local file's probe cancelled at any moment still finishes and goes")
        func localCancellation() async throws {
            let url = try await MediaFixtures.shared.url(.opus).absoluteString
            for attempt in 0..<20 {
                let probe = Task { try await loader.load(url) }
                // From before the probe starts to the middle of it.
                try await Task.sleep(for: .microseconds(250 * attempt))
                probe.cancel()
                _ = try? await probe.value
            }
            let finished = await waitUntil { PlaybackDiagnostics.probes == 0 }
            #expect(finished, "\(PlaybackDiagnostics.probes) probes still alive")
        }

        @Test("a probe gives up after its time limit")
        func timeLimit() async throws {
            let server = try TestHTTPServer()
            server.route("/stalled.mp3", .stall)
            let quick = AssetLoader(timeout: .seconds(1), networkTimeout: .seconds(5))
            let start = ContinuousClock.now
            await #expect(throws: PlaybackError.timeout) { try await quick.load(server.url("/stalled.mp3")) }
            #expect(ContinuousClock.now - start < .seconds(4))
        }

        private func waitUntil(_ condition: @Sendable () -> Bool) async -> Bool {
            for _ in 0..<200 where !condition() { try? await Task.sleep(for: .milliseconds(20)) }
            return condition()
        }
    }
}
