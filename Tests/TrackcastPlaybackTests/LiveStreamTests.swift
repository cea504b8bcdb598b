import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    @Suite("Live streams")
    @MainActor
    struct LiveStreamTests {
        @Test("a live stream whose preroll's buffer stopped short of full plays on past the network timeout")
        func playsPastNetworkTimeout() async throws {
            let server = try TestHTTPServer()
            // A short window: the buffer hlsdemux2 fills before it plays stops at about a fifth.
            let live = LiveStream(segments: try await LiveStream.makeSegments(seconds: 40), on: server, window: 10,
                                  initially: 10)
            let encoder = live.publishEverySecond()
            defer { encoder.cancel() }
            let player = try await TestPlayer { $0.networkTimeout = .seconds(2) }
            let id = player.controller.load(PlaybackItem(uri: server.url(live.path), kind: .audio))
            #expect(await player.recorder.waitFor(.ready(isLive: true), of: id), "states: \(player.recorder.states(of: id))")
            let start = try #require(await player.waitUntil { player.controller.position != nil } ? player.controller.position : nil)
            // Three network timeouts on, still playing and further on.
            #expect(await player.waitUntil { (player.controller.position ?? .zero) > start + .seconds(6) },
                    "position \(String(describing: player.controller.position)), states \(player.recorder.states(of: id))")
            #expect(!player.recorder.states(of: id).contains { $0.isFailure }, "states: \(player.recorder.states(of: id))")
        }

        @Test("a live playlist with a window seeks within it; behind the edge, go-to-live comes back to it")
        func dvrWindow() async throws {
            let server = try TestHTTPServer()
            let live = LiveStream(segments: try await LiveStream.makeSegments(seconds: 90), on: server, window: 30,
                                  initially: 30)
            let encoder = live.publishEverySecond()
            defer { encoder.cancel() }
            let player = try await TestPlayer()
            let id = player.controller.load(PlaybackItem(uri: server.url(live.path), kind: .audio))
            #expect(await player.recorder.waitFor(.ready(isLive: true), of: id), "states: \(player.recorder.states(of: id))")
            #expect(await player.recorder.waitFor(.playing, of: id))
            let window = try #require(player.controller.liveSeekWindow, "no seek window")
            let lag = try #require(player.controller.liveLag)
            print("window \(window), lag \(lag), position \(String(describing: player.controller.position))")
            #expect(window.upperBound - window.lowerBound > .seconds(15), "window \(window)")
            #expect(lag < .seconds(5), "starts \(lag) behind the edge")

            player.controller.seek(to: window.lowerBound + .seconds(2))
            #expect(await player.waitUntil { (player.controller.liveLag ?? .zero) > .seconds(10) },
                    "after a seek back, lag \(String(describing: player.controller.liveLag))")
            player.controller.goToLive()
            #expect(await player.waitUntil { (player.controller.liveLag ?? .seconds(99)) < .seconds(5) },
                    "after go-to-live, lag \(String(describing: player.controller.liveLag))")
        }
    }
}
