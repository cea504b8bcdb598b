import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// An item plays as soon as its pipeline has prerolled; the asset probe
    /// only adds details, when it comes.
    @Suite("Playing without waiting for the probe")
    @MainActor
    struct ProbeIndependenceTests {
        /// No probe at all: whatever the item is known to be comes from the pipeline.
        private func playerWithoutProbe() async throws -> TestPlayer {
            try await TestPlayer { $0.probesAssets = false }
        }

        @Test("a file plays on what its pipeline tells, with no probe", arguments: [
            MediaFixtures.Media.opus, .mp3, .aac,
        ])
        func localFile(_ media: MediaFixtures.Media) async throws {
            let player = try await playerWithoutProbe()
            let id = try await player.play(try await MediaFixtures.shared.url(media).absoluteString)
            // An MP3 parser estimates the length from the first frames it reads.
            #expect(await player.waitUntil { player.controller.asset?.duration != nil })
            let asset = try #require(player.controller.asset)
            #expect(abs((asset.duration ?? .zero).seconds - media.duration.seconds) < 0.5)
            #expect(!asset.isLive && asset.isSeekable)
            #expect(asset.hasAudio && !asset.hasVideo)
            player.controller.seek(to: .seconds(3))
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .seconds(3) })
            #expect(!player.recorder.states(of: id).contains { $0.isFailure }, "states: \(player.recorder.states(of: id))")
        }

        @Test("a video's picture track is known from its pipeline")
        func video() async throws {
            let player = try await playerWithoutProbe()
            let uri = try await MediaFixtures.shared.url(.video).absoluteString
            let id = player.controller.load(PlaybackItem(uri: uri, kind: .video))
            #expect(await player.recorder.waitFor(.playing, of: id), "states: \(player.recorder.states(of: id))")
            let asset = try #require(player.controller.asset)
            #expect(asset.hasVideo && asset.hasAudio)
        }

        @Test("over HTTP, MP3 streams and Ogg is downloaded, with no probe", arguments: [
            MediaFixtures.Media.mp3, .opus,
        ])
        func overHTTP(_ media: MediaFixtures.Media) async throws {
            let server = try TestHTTPServer()
            server.route("/episode", .serve(try await MediaFixtures.shared.data(media), contentType: media.contentType))
            let player = try await playerWithoutProbe()
            _ = try await player.play(server.url("/episode"))
            #expect(player.controller.asset?.isLive == false)
            // An MP3 parser estimates the length from the first frames it reads.
            #expect(await player.waitUntil { player.controller.asset?.duration != nil })
            let asset = try #require(player.controller.asset)
            #expect(asset.isSeekable)
            #expect(abs((asset.duration ?? .zero).seconds - media.duration.seconds) < 0.5)
        }

        @Test("Ogg whose address says so is downloaded from the start; other Ogg after a first preroll")
        func oggDownloadedAtOnce() async throws {
            let server = try TestHTTPServer()
            let data = try await MediaFixtures.shared.data(.opus)
            for path in ["/episode.opus", "/episode"] { server.route(path, .serve(data, contentType: "audio/ogg")) }
            let player = try await playerWithoutProbe()
            for path in ["/episode.opus", "/episode"] {
                _ = try await player.play(server.url(path))
                #expect(player.controller.asset?.isSeekable == true)
                player.controller.stop()
            }
            #expect(server.log(for: "/episode.opus").count == 1, "requests: \(server.requests)")
            #expect(server.log(for: "/episode").count > 1, "requests: \(server.requests)")
        }

        @Test("a file paused before it is ready stays paused")
        func pausedBeforeReady() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.opus).absoluteString
            let id = player.controller.load(PlaybackItem(uri: uri, kind: .audio))
            player.controller.pause()
            #expect(await player.recorder.waitFor(.ready(isLive: false), of: id))
            try await Task.sleep(for: .milliseconds(500))
            #expect(!player.recorder.states(of: id).contains(.playing), "states: \(player.recorder.states(of: id))")
            #expect((player.controller.position ?? .zero) < .milliseconds(200),
                    "it played on to \(String(describing: player.controller.position))")
            player.controller.play()
            #expect(await player.recorder.waitFor(.playing, of: id))
        }

        @Test("a pipeline stuck before its preroll gets the probe's verdict")
        func secondOpinion() async throws {
            let server = try TestHTTPServer()
            // The pipeline's request hangs; the probe's, which comes later, is refused.
            server.route("/episode.mp3", .stall)
            let player = try await TestPlayer { $0.loadTimeout = .seconds(10); $0.networkTimeout = .seconds(8) }
            let id = player.controller.load(PlaybackItem(uri: server.url("/episode.mp3"), kind: .audio))
            #expect(await player.waitUntil { !server.log(for: "/episode.mp3").isEmpty })
            server.route("/episode.mp3", .status(404))
            #expect(await player.recorder.failure(of: id, timeout: .seconds(8)) == .httpStatus(404),
                    "states: \(player.recorder.states(of: id))")
        }

        @Test("a live playlist is live by its pipeline alone")
        func livePlaylist() async throws {
            let server = try TestHTTPServer()
            try await MediaFixtures.shared.serveHLS(on: server) { $0.replacingOccurrences(of: "#EXT-X-ENDLIST", with: "") }
            let player = try await playerWithoutProbe()
            let id = player.controller.load(PlaybackItem(uri: server.url("/hls/playlist.m3u8"), kind: .audio))
            #expect(await player.recorder.waitFor(.ready(isLive: true), of: id), "states: \(player.recorder.states(of: id))")
            #expect(player.controller.asset?.isSeekable == false)
        }

        @Test("the probe's cover art and codec reach the asset, announced if it comes after ready")
        func probeDetailsMergeIn() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.coverMP3).absoluteString
            let id = player.controller.load(PlaybackItem(uri: uri, kind: .audio), autoplay: false)
            let updates = player.controller.assetUpdates(of: id)
            #expect(await player.recorder.waitFor(.ready(isLive: false), of: id))
            let hasDetails = { (asset: LoadedAsset?) in asset?.artwork == ID3Tag.onePixelPNG && asset?.tracks.first?.codec != nil }
            if !hasDetails(player.controller.asset) {
                let update = await player.first(of: updates)
                #expect(hasDetails(update), "update: \(String(describing: update))")
            }
            #expect(hasDetails(player.controller.asset))
            #expect(player.controller.asset?.title == "Cover Story")
        }

        @Test("merging keeps the pipeline's length, liveness and seeking, and takes the probe's details")
        func merging() {
            let fromPipeline = LoadedAsset(duration: .seconds(61), isLive: false, isSeekable: true,
                                           tracks: [.init(kind: .audio)], title: "From a tag")
            let probe = LoadedAsset(duration: nil, isLive: false, isSeekable: false,
                                    tracks: [.init(kind: .audio, codec: "Opus", channels: 2)],
                                    artist: "Someone", artwork: Data([1, 2]), artworkType: "image/png",
                                    chapters: [.init(title: "One", start: .zero, end: nil)])
            let merged = fromPipeline.merging(probe: probe)
            #expect(merged.duration == .seconds(61))
            #expect(merged.isSeekable && !merged.isLive)
            #expect(merged.tracks == probe.tracks)
            #expect(merged.title == "From a tag" && merged.artist == "Someone")
            #expect(merged.artwork == Data([1, 2]) && merged.artworkType == "image/png")
            #expect(merged.chapters == probe.chapters)
        }
    }
}
