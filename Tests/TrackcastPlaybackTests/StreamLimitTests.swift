import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// The data saver's caps, as the adaptive demuxer applies them: which
    /// variant of a three-variant HLS stream it fetches segments of.
    @Suite("Stream limits")
    @MainActor
    struct StreamLimitTests {
        private func serve(repeats: Int = 1) async throws -> TestHTTPServer {
            let server = try TestHTTPServer()
            VariantStream.serve(try await MediaFixtures.shared.hlsFiles(), on: server, repeats: repeats)
            return server
        }

        /// Plays the master playlist under `limits` until three segments came; their variants.
        private func variantsPlayed(under limits: StreamLimits) async throws -> [Int] {
            let server = try await serve()
            let player = try await TestPlayer()
            player.controller.streamLimits = limits
            _ = try await player.play(server.url(VariantStream.masterPath))
            let fetched = await player.waitUntil { VariantStream.segmentVariants(in: server.requests).count >= 3 }
            try #require(fetched, "segments fetched: \(server.requests)")
            return VariantStream.segmentVariants(in: server.requests)
        }

        @Test("each bitrate cap picks the best variant under it", arguments: [
            (1_000, 2), (300, 1), (5_000, 3),
        ])
        func capChoosesVariant(kilobits: Int, expected: Int) async throws {
            let played = try await variantsPlayed(under: StreamLimits(height: 0, kilobitsPerSecond: kilobits))
            #expect(played.allSatisfy { $0 == expected }, "under \(kilobits) kbit/s the segments came from \(played)")
        }

        @Test("a height cap holds the stream on its lowest variant until its variants are known, then on the best under it")
        func heightCap() async throws {
            let server = try await serve(repeats: 5)
            let player = try await TestPlayer()
            // 720p with room in the bitrate: the 800 kbit/s variant, not the 3000 one the bitrate allows.
            player.controller.streamLimits = StreamLimits(height: 720, kilobitsPerSecond: 5_000)
            let id = try await player.play(server.url(VariantStream.masterPath))
            try #require(await player.waitUntil { VariantStream.segmentVariants(in: server.requests).count >= 2 },
                         "segments fetched: \(server.requests)")
            let before = VariantStream.segmentVariants(in: server.requests)
            #expect(before.allSatisfy { $0 == 1 }, "before the variants were known: \(before)")
            // What the app reads of the master playlist (`HLSMasterPlaylist`), as served.
            let variants = VariantStream.variants.map { StreamVariant(bandwidth: $0.bandwidth, height: $0.height) }
            player.controller.setStreamVariants(variants, of: id)
            let moved = await player.waitUntil(.seconds(20)) {
                VariantStream.segmentVariants(in: server.requests).dropFirst(before.count).contains(2)
            }
            let after = VariantStream.segmentVariants(in: server.requests).dropFirst(before.count)
            #expect(moved && !after.contains(3), "after the variants were known: \(after)")
        }

        @Test("a cap set while playing moves the stream to a lower variant")
        func capWhilePlaying() async throws {
            // Five times over, 60 s: longer than the demuxer fetches ahead.
            let server = try await serve(repeats: 5)
            let player = try await TestPlayer()
            player.controller.streamLimits = StreamLimits(height: 0, kilobitsPerSecond: 5_000)
            _ = try await player.play(server.url(VariantStream.masterPath))
            try #require(await player.waitUntil { VariantStream.segmentVariants(in: server.requests).contains(3) },
                         "segments fetched: \(server.requests)")
            let before = VariantStream.segmentVariants(in: server.requests).count
            player.controller.streamLimits = StreamLimits(height: 0, kilobitsPerSecond: 300)
            let moved = await player.waitUntil(.seconds(20)) {
                VariantStream.segmentVariants(in: server.requests).dropFirst(before).contains(1)
            }
            #expect(moved, "segments after the cap: \(VariantStream.segmentVariants(in: server.requests).dropFirst(before)), before: \(VariantStream.segmentVariants(in: server.requests).prefix(before))")
        }
    }
}
