import Foundation
import TestSupport
import TestSupport
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// The bug the player's structure exists to prevent: the user moves on to
    /// the next episode while the current one is still loading (or playing),
    /// the old one fails a moment later, and its error shows over the new one.
    @Suite("Switching items while the old one fails")
    @MainActor
    struct OrderingTests {
        /// Every state after B began must be B's, none may be A's failure, and B must be playing.
        private func expectOnlyB(_ player: TestPlayer, a: PlaybackItemID, b: PlaybackItemID) {
            let states = player.recorder.states
            #expect(!states.contains { $0.itemID == a && $0.phase.isFailure }, "A's failure was published: \(states)")
            let sinceB = states.drop { $0.itemID != b }
            #expect(sinceB.allSatisfy { $0.itemID == b }, "states after B began: \(Array(sinceB))")
            #expect(player.recorder.states(of: b).last == .playing, "B: \(player.recorder.states(of: b))")
        }

        @Test("A stalls and then fails while loading; B, loaded meanwhile, plays and A's error never shows",
              arguments: [0, 100, 600])
        func failureWhileLoading(millisecondsBeforeB: Int) async throws {
            let server = try TestHTTPServer()
            server.route("/a.mp3", .delay(.milliseconds(1500), then: .init(.status(500))))
            server.route("/b.mp3", .serve(try await MediaFixtures.shared.data(.mp3), contentType: "audio/mpeg"))
            let player = try await TestPlayer()

            let a = player.controller.load(PlaybackItem(uri: server.url("/a.mp3"), kind: .audio))
            if millisecondsBeforeB > 0 { try await Task.sleep(for: .milliseconds(millisecondsBeforeB)) }
            let b = player.controller.load(PlaybackItem(uri: server.url("/b.mp3"), kind: .audio))
            #expect(await player.recorder.waitFor(.playing, of: b))
            // Past the moment A's server gives up, and then some.
            try await Task.sleep(for: .milliseconds(2500))
            await player.controller.stateUpdatesDelivered()
            if millisecondsBeforeB >= 100 {
                #expect(server.requests.contains { $0.hasPrefix("GET /a.mp3") }, "A was never even requested")
            }
            expectOnlyB(player, a: a, b: b)
        }

        @Test("A fails while the main thread is busy, so its error waits on the bus when B loads: dropped with A, it never shows")
        func failureWaitingOnTheBus() async throws {
            let server = try TestHTTPServer()
            server.route("/a.mp3", .status(500))
            server.route("/b.mp3", .serve(try await MediaFixtures.shared.data(.mp3), contentType: "audio/mpeg"))
            let player = try await TestPlayer()
            let errorsBefore = PlaybackDiagnostics.staleErrorsDropped

            let a = player.controller.load(PlaybackItem(uri: server.url("/a.mp3"), kind: .audio))
            // The main thread held, as a busy window holds it: A's source gets
            // its 500 and posts the error, which nothing can handle yet.
            let deadline = ContinuousClock.now + .seconds(10)
            while !server.requests.contains(where: { $0.hasPrefix("GET /a.mp3") }), ContinuousClock.now < deadline {
                usleep(10_000)
            }
            usleep(500_000)
            let b = player.controller.load(PlaybackItem(uri: server.url("/b.mp3"), kind: .audio))
            #expect(PlaybackDiagnostics.staleErrorsDropped > errorsBefore,
                    "A's error was not waiting on the bus: the stale path did not run (requests: \(server.requests))")
            #expect(await player.recorder.waitFor(.playing, of: b))
            await player.controller.stateUpdatesDelivered()
            expectOnlyB(player, a: a, b: b)
        }

        @Test("A's server drops the connection while A plays, just as B loads: A's error never shows")
        func failureWhilePlaying() async throws {
            let server = try TestHTTPServer()
            let long = try await MediaFixtures.shared.data(.longMP3)
            server.route("/b.mp3", .serve(try await MediaFixtures.shared.data(.mp3), contentType: "audio/mpeg"))
            let player = try await TestPlayer { $0.forwardBuffer = .seconds(1) }
            // Both orders of A's source posting its error and the switch
            // tearing A down: B loads at once in even rounds, and in odd ones
            // only after the main thread, held, let A's error reach the bus.
            var staleErrorRounds = 0
            for round in 0..<4 {
                let path = "/a\(round).mp3"
                // Slow enough that A is still downloading while it plays.
                server.route(path, .throttled(long, contentType: "audio/mpeg", bytesPerSecond: 24_000))
                let a = try await player.play(server.url(path))
                let errorsBefore = PlaybackDiagnostics.staleErrorsDropped
                server.breakConnections(to: path)
                if round % 2 == 1 { usleep(500_000) }
                let b = player.controller.load(PlaybackItem(uri: server.url("/b.mp3"), kind: .audio))
                if PlaybackDiagnostics.staleErrorsDropped > errorsBefore { staleErrorRounds += 1 }
                #expect(await player.recorder.waitFor(.playing, of: b))
                try await Task.sleep(for: .milliseconds(300))
                await player.controller.stateUpdatesDelivered()
                expectOnlyB(player, a: a, b: b)
            }
            #expect(staleErrorRounds >= 2, "A's error reached the bus before B loaded in \(staleErrorRounds) rounds of 4, not the two held ones")
        }

        @Test("A stalls mid-download while playing; B plays and A's later timeout never shows")
        func stallWhilePlaying() async throws {
            let server = try TestHTTPServer()
            // WAV, because nothing reads its end first: 400 kB is about 2 s of it.
            server.route("/a.wav", .stallAfter(bytes: 400_000, try await MediaFixtures.shared.data(.wav), contentType: "audio/wav"))
            server.route("/b.mp3", .serve(try await MediaFixtures.shared.data(.longMP3), contentType: "audio/mpeg"))
            let player = try await TestPlayer { $0.networkTimeout = .seconds(2); $0.forwardBuffer = .seconds(1) }
            let a = try await player.play(server.url("/a.wav"))
            let b = player.controller.load(PlaybackItem(uri: server.url("/b.mp3"), kind: .audio))
            #expect(await player.recorder.waitFor(.playing, of: b))
            // A's source would have timed out by now had it lived.
            try await Task.sleep(for: .seconds(3))
            await player.controller.stateUpdatesDelivered()
            expectOnlyB(player, a: a, b: b)
        }

        @Test("A fails and its error is still being classified when B loads: the late verdict never shows")
        func classificationInFlight() async throws {
            let server = try TestHTTPServer()
            // Every request, the player's HEAD check included, waits 1.5 s and then
            // has its connection reset: A fails, and working out why takes 1.5 s more.
            server.route("/a.mp3", .delay(.milliseconds(1500), then: .init(.reset)))
            server.route("/b.mp3", .serve(try await MediaFixtures.shared.data(.mp3), contentType: "audio/mpeg"))
            let player = try await TestPlayer()
            let a = player.controller.load(PlaybackItem(uri: server.url("/a.mp3"), kind: .audio))
            let checking = await player.waitUntil(.seconds(15)) {
                server.requests.contains { $0.hasPrefix("HEAD /a.mp3") }
            }
            #expect(checking, "A's failure was never classified: \(server.requests)")
            let b = player.controller.load(PlaybackItem(uri: server.url("/b.mp3"), kind: .audio))
            #expect(await player.recorder.waitFor(.playing, of: b))
            try await Task.sleep(for: .seconds(2))
            await player.controller.stateUpdatesDelivered()
            expectOnlyB(player, a: a, b: b)
        }

        @Test("when nothing replaces it, A's failure does show")
        func failureShowsWhenCurrent() async throws {
            let server = try TestHTTPServer()
            server.route("/a.mp3", .delay(.milliseconds(300), then: .init(.status(500))))
            let player = try await TestPlayer()
            let a = player.controller.load(PlaybackItem(uri: server.url("/a.mp3"), kind: .audio))
            #expect(await player.recorder.failure(of: a) == .httpStatus(500))
        }
    }
}
