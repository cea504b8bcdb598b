import Foundation
import Testing
import TestSupport
import TrackcastCore
@testable import TrackcastPlayback

extension PlaybackEngine {
    @Suite("Playing over HTTP on loopback")
    @MainActor
    struct HTTPPlaybackTests {
        @Test("Opus, MP3 and AAC-in-MP4 play from an HTTP server", arguments: [
            MediaFixtures.Media.opus, .mp3, .aac,
        ])
        func plays(_ media: MediaFixtures.Media) async throws {
            let server = try TestHTTPServer()
            server.route("/episode", .serve(try await MediaFixtures.shared.data(media), contentType: media.contentType))
            let player = try await TestPlayer()
            let id = try await player.play(server.url("/episode"))
            let start = try #require(player.controller.position)
            try await Task.sleep(for: .milliseconds(600))
            #expect(try #require(player.controller.position) > start)
            let asset = try #require(player.controller.asset)
            #expect(!asset.isLive && asset.isSeekable)
            #expect(abs((asset.duration ?? .zero).seconds - media.duration.seconds) < 0.5)
            #expect(player.recorder.states(of: id).contains(.ready(isLive: false)))
            player.controller.seek(to: .seconds(3))
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .seconds(3) },
                    "it did not seek: at \(String(describing: player.controller.position)), states \(player.recorder.states(of: id))")
        }

        /// souphttpsrc shares its pipeline's libsoup session only while its
        /// settings are the defaults; with any other timeout each load made
        /// a session and a connection of its own (3-4 ms a load on loopback).
        @Test("the next item from the same server comes over the connection the last one used")
        func reusesConnections() async throws {
            let server = try TestHTTPServer()
            let data = try await MediaFixtures.shared.data(.mp3)
            server.route("/first.mp3", .serve(data, contentType: "audio/mpeg"))
            server.route("/second.mp3", .serve(data, contentType: "audio/mpeg"))
            let player = try await TestPlayer()
            _ = try await player.play(server.url("/first.mp3"))
            // A connection is kept for the next request only once its answer was read whole.
            #expect(await player.waitUntil {
                let log = server.log(for: "/first.mp3")
                return !log.isEmpty && log.allSatisfy { $0.finished != nil }
            })
            try await Task.sleep(for: .milliseconds(200))
            _ = try await player.play(server.url("/second.mp3"))
            let first = try #require(server.log(for: "/first.mp3").last)
            let second = try #require(server.log(for: "/second.mp3").first)
            #expect(second.connection == first.connection,
                    "the second item came over connection \(second.connection), the first over \(first.connection)")
        }

        @Test("seeking an HTTP file asks the server for a byte range")
        func rangeRequests() async throws {
            let server = try TestHTTPServer()
            server.route("/long.mp3", .serve(try await MediaFixtures.shared.data(.longMP3), contentType: "audio/mpeg"))
            let player = try await TestPlayer()
            _ = try await player.play(server.url("/long.mp3"))
            player.controller.seek(to: .seconds(25))
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .seconds(25) })
            #expect(server.requests.contains { $0.contains("[bytes=") && !$0.contains("[bytes=0-]") },
                    "requests: \(server.requests)")
        }

        /// queue2 can post a low figure and 100 % a millisecond apart: the
        /// pause the first asked for is then still under way when the second
        /// comes, with the pipeline's current state still playing.
        @Test("a buffer that dips and refills at once leaves the item playing")
        func bufferDipsAndRefills() async throws {
            let server = try TestHTTPServer()
            server.route("/long.mp3", .serve(try await MediaFixtures.shared.data(.longMP3), contentType: "audio/mpeg"))
            let player = try await TestPlayer()
            let id = try await player.play(server.url("/long.mp3"))
            let playbin = player.controller.playbin
            _ = playbin.post(.buffering(percent: 5, from: playbin))
            _ = playbin.post(.buffering(percent: 100, from: playbin))
            let phases = { player.recorder.states(of: id) }
            #expect(await player.waitUntil {
                guard let dip = phases().firstIndex(of: .buffering(percent: 5)) else { return false }
                return phases()[dip...].contains(.playing)
            }, "\(phases())")

            let before = try #require(player.controller.position)
            #expect(await player.waitUntil { (player.controller.position ?? .zero) > before + .milliseconds(500) },
                    "stuck at \(before): pipeline \(playbin.state()), states \(phases())")
        }

        @Test("a slow server makes the player pause to buffer, then play on")
        func buffering() async throws {
            let server = try TestHTTPServer()
            let data = try await MediaFixtures.shared.data(.longMP3)
            // 1.5× the stream's 4000 bytes a second: enough to play on average,
            // too little to keep a buffer full, so playback stops to refill it.
            server.route("/slow.mp3", .throttled(data, contentType: "audio/mpeg", bytesPerSecond: 6_000))
            let player = try await TestPlayer { $0.forwardBuffer = .seconds(2) }
            let id = player.controller.load(PlaybackItem(uri: server.url("/slow.mp3"), kind: .audio))
            let phases = { player.recorder.states(of: id) }
            let firstPlaying = { phases().firstIndex(of: .playing) }
            let bufferingAfterPlaying = {
                guard let playing = firstPlaying() else { return nil as Int? }
                return phases()[playing...].firstIndex { if case .buffering(let percent) = $0 { percent < 100 } else { false } }
            }
            #expect(await player.waitUntil(.seconds(20)) { bufferingAfterPlaying() != nil }, "never buffered: \(phases())")
            #expect(await player.waitUntil(.seconds(20)) {
                guard let buffering = bufferingAfterPlaying(), let playing = phases().lastIndex(of: .playing) else { return false }
                return playing > buffering
            }, "never played again after buffering: \(phases())")
            // Playing, buffering, playing: it got somewhere.
            #expect(try #require(player.controller.position) > .milliseconds(500))
        }
    }
}
