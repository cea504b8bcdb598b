import Foundation
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// Rates and seeks, measured against the wall clock with generous bounds:
    /// the machine is shared, so only ratios are compared, never absolute times.
    @Suite("Position, rate and seeking")
    @MainActor
    struct TimingTests {
        /// Media seconds per wall second over `wall`, sampled while playing.
        private func speed(of player: TestPlayer, over wall: Duration = .seconds(2)) async throws -> Double {
            let clock = ContinuousClock()
            let startPosition = try #require(player.controller.position)
            let start = clock.now
            try await Task.sleep(for: wall)
            let endPosition = try #require(player.controller.position)
            let elapsed = clock.now - start
            return (endPosition - startPosition).seconds / elapsed.seconds
        }

        @Test("the position advances with the wall clock at normal speed")
        func normalSpeed() async throws {
            let player = try await TestPlayer()
            _ = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)
            let ratio = try await speed(of: player)
            #expect(ratio > 0.75 && ratio < 1.25, "media advanced \(ratio)× as fast as the wall clock")
        }

        @Test("rate 2.0 plays twice as fast, and the rate carries over to the next item")
        func doubleSpeed() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.longOpus).absoluteString
            let first = try await player.play(uri)
            player.controller.setRate(PlaybackRate(2.0))
            try await Task.sleep(for: .milliseconds(300))
            let ratio = try await speed(of: player)
            #expect(ratio > 1.6 && ratio < 2.4, "at 2× media advanced \(ratio)× as fast as the wall clock")
            // Ticks report the rate they were sampled at.
            #expect(await player.first(of: player.controller.positionTicks(of: first))?.rate == 2.0)

            _ = try await player.play(uri)
            #expect(player.controller.rate == PlaybackRate(2.0))
            try await Task.sleep(for: .milliseconds(300))
            let nextRatio = try await speed(of: player)
            #expect(nextRatio > 1.6 && nextRatio < 2.4, "the next item ran at \(nextRatio)×")
        }

        @Test("starting at a position starts there")
        func startPosition() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.longOpus).absoluteString
            _ = try await player.play(uri, startingAt: .seconds(20))
            let position = try #require(player.controller.position)
            #expect(position >= .seconds(20) && position < .seconds(22), "started at \(position)")
        }

        /// Waits for the position to stop moving (paused, seek done) and returns it.
        private func settledPosition(_ player: TestPlayer) async throws -> Duration {
            var last: Duration?
            var steady = 0
            for _ in 0..<150 {
                try await Task.sleep(for: .milliseconds(20))
                let now = player.controller.position
                if now != nil, now == last { steady += 1 } else { steady = 0 }
                if steady >= 5 { return now! }
                last = now
            }
            throw TestFailure("the position never settled; last \(String(describing: last))")
        }

        @Test("an exact seek lands within 20 ms of its target; a fast one on a key frame")
        func exactSeek() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.video).absoluteString
            let id = player.controller.load(PlaybackItem(uri: uri, kind: .video))
            #expect(await player.recorder.waitFor(.playing, of: id))
            let target = Duration.milliseconds(5_370)
            // Each seek comes straight after a pause, whose own completion
            // must not pass for the seek's.
            let landings = player.controller.seekCompletions(of: id)
            player.controller.pause()
            player.controller.seek(to: target, mode: .exact)
            let reported = await player.first(of: landings)
            let landed = try await settledPosition(player)
            #expect(abs((landed - target).seconds) <= 0.02, "exact seek to \(target) landed at \(landed)")
            #expect(reported == landed, "the seek reported landing at \(String(describing: reported))")

            player.controller.play()
            #expect(await player.waitUntil { (player.controller.position ?? .zero) > landed + .milliseconds(200) })
            // Key frames are 2 s apart: a fast seek to 5.37 s snaps to 6 s (or 4 s).
            let fastLandings = player.controller.seekCompletions(of: id)
            player.controller.pause()
            player.controller.seek(to: target, mode: .fast)
            let fastReported = await player.first(of: fastLandings)
            let snapped = try await settledPosition(player)
            #expect(abs((snapped - target).seconds) > 0.3, "fast seek did not snap: \(snapped)")
            #expect([4.0, 6.0].contains { abs(snapped.seconds - $0) < 0.05 }, "fast seek landed at \(snapped)")
            #expect(fastReported == snapped, "the fast seek reported landing at \(String(describing: fastReported))")
        }

        @Test("an exact seek while playing carries on from the target")
        func seekWhilePlaying() async throws {
            let player = try await TestPlayer()
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)
            player.controller.seek(to: .seconds(25), mode: .exact)
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .seconds(25) })
            let position = try #require(player.controller.position)
            #expect(position < .seconds(27))
            #expect(player.recorder.states(of: id).last == .playing)
        }

        @Test("skipping forward and back is clamped to the item")
        func skipping() async throws {
            let player = try await TestPlayer { $0.skipForward = .seconds(30); $0.skipBackward = .seconds(10) }
            _ = try await player.play(try await MediaFixtures.shared.url(.opus).absoluteString)
            player.controller.pause()
            player.controller.skipBackward()
            let start = try await settledPosition(player)
            #expect(start == .zero)
            player.controller.skip(by: .seconds(2))
            let two = try await settledPosition(player)
            #expect(abs(two.seconds - 2) < 0.05)
            player.controller.skipForward()
            let end = try await settledPosition(player)
            #expect(abs(end.seconds - MediaFixtures.Media.opus.duration.seconds) < 0.1, "skipped to \(end)")
        }
    }
}
