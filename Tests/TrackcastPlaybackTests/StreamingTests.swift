import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    @Suite("HLS streams")
    @MainActor
    struct StreamingTests {
        private func serveHLS(playlist edit: @Sendable (String) -> String = { $0 }) async throws -> TestHTTPServer {
            let server = try TestHTTPServer()
            try await MediaFixtures.shared.serveHLS(on: server, playlist: edit)
            return server
        }

        @Test("an HLS stream plays through the adaptive demuxer and seeks")
        func videoOnDemand() async throws {
            let server = try await serveHLS()
            let player = try await TestPlayer()
            let id = try await player.play(server.url("/hls/playlist.m3u8"))
            #expect(player.recorder.states(of: id).contains(.ready(isLive: false)))
            let asset = try #require(player.controller.asset)
            #expect(!asset.isLive)
            #expect(abs((player.controller.duration ?? .zero).seconds - 12) < 1, "duration \(String(describing: player.controller.duration))")
            player.controller.seek(to: .seconds(8))
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .seconds(8) })
            #expect(try #require(player.controller.position) < .seconds(11))
            #expect(server.requests.contains { $0.contains("segment00008.ts") || $0.contains("segment00007.ts") },
                    "segments fetched: \(server.requests)")
        }

        @Test("a playlist without an end is live: ready(isLive: true), and a seek stays within its short window")
        func live() async throws {
            let server = try await serveHLS { $0.replacingOccurrences(of: "#EXT-X-ENDLIST", with: "") }
            let player = try await TestPlayer()
            let id = player.controller.load(PlaybackItem(uri: server.url("/hls/playlist.m3u8"), kind: .audio))
            #expect(await player.recorder.waitFor(.ready(isLive: true), of: id), "states: \(player.recorder.states(of: id))")
            #expect(await player.recorder.waitFor(.playing, of: id))
            let asset = try #require(player.controller.asset)
            #expect(asset.isLive && !asset.isSeekable)
            let before = try #require(player.controller.position)
            player.controller.seek(to: before + .seconds(5))
            try await Task.sleep(for: .milliseconds(300))
            let after = try #require(player.controller.position)
            #expect(after < before + .seconds(2), "a live stream moved from \(before) to \(after)")
        }
    }
}
