import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// `PlayerController.load(_:holdsHLS:)`: an HLS item waits at ready for
    /// the app, which reads its playlist's interstitials; any other item plays.
    @Suite("Holding an HLS item at ready")
    @MainActor
    struct HLSHoldTests {
        @Test("an HLS item loaded holding waits at ready, paused, through a seek and Play, until released; then it plays")
        func heldUntilReleased() async throws {
            let server = try TestHTTPServer()
            InterstitialStream.serve(try await HLSAudioSegments.make(), on: server)
            let player = try await TestPlayer()
            let id = player.controller.load(PlaybackItem(uri: server.url(InterstitialStream.plainPath), kind: .audio),
                                            holdsHLS: true)
            #expect(await player.recorder.waitFor(.ready(isLive: false), of: id), "states: \(player.recorder.states(of: id))")
            #expect(player.controller.wantsPlaying)
            // A seek's landing comes through the pipeline after the PLAYING that ready would have asked for.
            let landings = player.controller.seekCompletions(of: id)
            player.controller.seek(to: .seconds(2))
            #expect(await player.first(of: landings) != nil)
            player.controller.play()
            await player.controller.stateUpdatesDelivered()
            #expect(!player.recorder.states(of: id).contains(.playing), "states: \(player.recorder.states(of: id))")
            #expect(!player.recorder.states(of: id).contains(.paused), "held is not paused: \(player.recorder.states(of: id))")
            let held = try #require(player.controller.position)
            #expect(abs(held.seconds - 2) < 0.1, "at \(held)")

            player.controller.releaseHold(of: id)
            #expect(await player.recorder.waitFor(.playing, of: id), "states: \(player.recorder.states(of: id))")
            #expect(await player.waitUntil { (player.controller.position ?? .zero) > held + .milliseconds(500) })
        }

        @Test("released before ready, it plays at ready; paused while held, it stays paused when released")
        func releasedEarlyOrPaused() async throws {
            let server = try TestHTTPServer()
            InterstitialStream.serve(try await HLSAudioSegments.make(), on: server)
            let player = try await TestPlayer()
            let uri = server.url(InterstitialStream.plainPath)
            let early = player.controller.load(PlaybackItem(uri: uri, kind: .audio), holdsHLS: true)
            player.controller.releaseHold(of: early)
            #expect(await player.recorder.waitFor(.playing, of: early), "states: \(player.recorder.states(of: early))")

            let paused = player.controller.load(PlaybackItem(uri: uri, kind: .audio), holdsHLS: true)
            #expect(await player.recorder.waitFor(.ready(isLive: false), of: paused))
            player.controller.pause()
            #expect(!player.controller.wantsPlaying)
            player.controller.releaseHold(of: paused)
            // The recorder hears the store from a task of its own, so the store's
            // barrier (`stateUpdatesDelivered`) is not enough: under CI's load it
            // had not yet recorded the pause.
            #expect(await player.recorder.waitFor(.paused, of: paused), "states: \(player.recorder.states(of: paused))")
            #expect(await !player.recorder.waitFor(.playing, of: paused, timeout: .milliseconds(500)),
                    "states: \(player.recorder.states(of: paused))")
            #expect(player.recorder.states(of: paused).last == .paused, "states: \(player.recorder.states(of: paused))")
        }

        @Test("an item that is not HLS plays at ready without a release")
        func fileIsNotHeld() async throws {
            let server = try TestHTTPServer()
            server.route("/episode.mp3", .serve(try await MediaFixtures.shared.data(.mp3), contentType: "audio/mpeg"))
            let player = try await TestPlayer()
            let id = player.controller.load(PlaybackItem(uri: server.url("/episode.mp3"), kind: .audio), holdsHLS: true)
            #expect(await player.recorder.waitFor(.playing, of: id), "states: \(player.recorder.states(of: id))")
        }
    }
}
