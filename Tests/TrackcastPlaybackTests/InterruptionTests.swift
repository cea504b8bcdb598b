import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// The sound server's interruptions, against a real PulseAudio of the
    /// test's own: a call corks the stream (module-role-cork, for a `phone`
    /// stream) and uncorks it after; an output device goes away.
    @Suite("Interruptions and outputs", .needs("pulseaudio", "pactl", "pacat"))
    @MainActor
    struct InterruptionTests {
        private func pulsePlayer(_ pulse: PulseAudioServer) async throws -> TestPlayer {
            try await TestPlayer { $0.audioSink = "pulsesink server=\(pulse.address)" }
        }

        /// Waits until item `id` reaches `phase` after its first `after` state.
        private func waitFor(_ phase: PlaybackPhase, after earlier: PlaybackPhase, of id: PlaybackItemID,
                             in player: TestPlayer) async -> Bool {
            await player.recorder.waitFor(.seconds(15)) { _ in
                let phases = player.recorder.states(of: id)
                guard let first = phases.firstIndex(of: earlier) else { return false }
                return phases[(first + 1)...].contains(phase)
            } != nil
        }

        /// Whether the position stays put for half a second (a paused pipeline).
        private func positionHolds(_ player: TestPlayer) async throws -> Bool {
            let before = try #require(player.controller.position)
            try await Task.sleep(for: .milliseconds(500))
            let after = try #require(player.controller.position)
            return abs((after - before).seconds) < 0.1
        }

        private func positionMoves(_ player: TestPlayer) async throws -> Bool {
            let before = try #require(player.controller.position)
            return await player.waitUntil { (player.controller.position ?? .zero) > before + .milliseconds(200) }
        }

        @Test("a call corks playback: paused while it lasts, playing again when it ends")
        func corkAndUncork() async throws {
            let pulse = try await PulseAudioServer(sinks: ["speakers"], modules: ["module-role-cork"])
            defer { pulse.stop() }
            let player = try await pulsePlayer(pulse)
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)

            let call = try pulse.startStream(role: "phone")
            #expect(await player.recorder.waitFor(.paused, of: id), "states: \(player.recorder.states(of: id))")
            #expect(!player.controller.wantsPlaying)
            #expect(try await positionHolds(player))

            _ = await call.finish(timeout: .zero)
            #expect(await waitFor(.playing, after: .paused, of: id, in: player),
                    "states: \(player.recorder.states(of: id))")
            #expect(player.controller.wantsPlaying)
            #expect(try await positionMoves(player))
        }

        @Test("a listener who pauses during a call stays paused when it ends")
        func userPauseOutlastsTheCall() async throws {
            let pulse = try await PulseAudioServer(sinks: ["speakers"], modules: ["module-role-cork"])
            defer { pulse.stop() }
            let player = try await pulsePlayer(pulse)
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)

            let call = try pulse.startStream(role: "phone")
            #expect(await player.recorder.waitFor(.paused, of: id), "states: \(player.recorder.states(of: id))")
            // The listener's own pause: the call's end must not undo it.
            player.controller.pause()
            _ = await call.finish(timeout: .zero)
            // Nothing comes to wait for; the uncork is a message on the bus,
            // handled within milliseconds of the call's end.
            try await Task.sleep(for: .seconds(1))
            #expect(!player.recorder.states(of: id).dropFirst(player.recorder.states(of: id).firstIndex(of: .paused) ?? 0)
                .contains(.playing), "states: \(player.recorder.states(of: id))")
            #expect(!player.controller.wantsPlaying)
            #expect(try await positionHolds(player))
        }

        @Test("the output device in use going away pauses, keeping the position; play goes on elsewhere")
        func outputGone() async throws {
            let pulse = try await PulseAudioServer(sinks: ["speakers", "headphones"])
            defer { pulse.stop() }
            let player = try await pulsePlayer(pulse)
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)

            // The listener sends the sound to the headphones…
            let stream = try #require(try await pulse.sinkInputs().first?.first)
            try await pulse.pactl("move-sink-input", stream, "headphones")
            let headphones = try #require(try await pulse.sinks()["headphones"])
            var moved = false
            for _ in 0..<100 where !moved {
                moved = try await pulse.sinkInputs().first?[1] == headphones
                if !moved { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(moved)
            #expect(try await positionMoves(player))
            // …and they go away: PulseAudio moves the stream back to the speakers.
            try await pulse.pactl("unload-module", try await pulse.module(ofSink: "headphones"))
            #expect(await player.recorder.waitFor(.paused, of: id), "states: \(player.recorder.states(of: id))")
            #expect(!player.recorder.states(of: id).contains { $0.isFailure })
            let kept = try #require(player.controller.position)
            #expect(kept > .zero)
            #expect(try await positionHolds(player))

            player.controller.play()
            #expect(await waitFor(.playing, after: .paused, of: id, in: player),
                    "states: \(player.recorder.states(of: id))")
            #expect(try await positionMoves(player))
            let speakers = try #require(try await pulse.sinks()["speakers"])
            #expect(try await pulse.sinkInputs().first?[1] == speakers)
        }

        @Test("the last output device going away pauses, keeping the position; play goes on when one comes back")
        func lastOutputGone() async throws {
            let pulse = try await PulseAudioServer(sinks: ["headphones"])
            defer { pulse.stop() }
            let player = try await pulsePlayer(pulse)
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)
            #expect(try await positionMoves(player))

            // No sink is left: the server ends the stream rather than move it.
            try await pulse.pactl("unload-module", try await pulse.module(ofSink: "headphones"))
            #expect(await player.recorder.waitFor(.paused, of: id), "states: \(player.recorder.states(of: id))")
            #expect(!player.recorder.states(of: id).contains { $0.isFailure }, "states: \(player.recorder.states(of: id))")
            #expect(!player.controller.wantsPlaying)
            let kept = try #require(player.controller.position)
            #expect(kept > .zero)

            try await pulse.pactl("load-module", "module-null-sink", "sink_name=speakers")
            player.controller.play()
            #expect(await waitFor(.playing, after: .paused, of: id, in: player),
                    "states: \(player.recorder.states(of: id))")
            #expect(try await positionMoves(player))
            #expect((player.controller.position ?? .zero) >= kept)
        }

        @Test("moving the stream to another device that stays does not pause")
        func moveIsNotALoss() async throws {
            let pulse = try await PulseAudioServer(sinks: ["speakers", "headphones"])
            defer { pulse.stop() }
            let player = try await pulsePlayer(pulse)
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)
            let stream = try #require(try await pulse.sinkInputs().first?.first)
            // Each move is seen while the stream plays on (pulsesink notices
            // its device at the next buffer it writes).
            try await pulse.pactl("move-sink-input", stream, "headphones")
            #expect(try await positionMoves(player))
            try await pulse.pactl("move-sink-input", stream, "speakers")
            #expect(try await positionMoves(player))
            try await Task.sleep(for: .seconds(1))
            #expect(!player.recorder.states(of: id).contains(.paused), "states: \(player.recorder.states(of: id))")
            #expect(player.controller.wantsPlaying)
        }
    }
}
