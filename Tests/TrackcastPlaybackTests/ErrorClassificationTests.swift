import Foundation
import TestSupport
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// Each error class, produced by a real failing source.
    @Suite("Classifying playback errors")
    @MainActor
    struct ErrorClassificationTests {
        private func failure(loading uri: String, kind: PlaybackItem.Kind = .audio,
                             _ configure: (inout PlayerConfiguration) -> Void = { _ in }) async throws -> PlaybackError? {
            let player = try await TestPlayer(configure)
            let id = player.controller.load(PlaybackItem(uri: uri, kind: kind))
            let error = await player.recorder.failure(of: id)
            if error == nil { Issue.record("no failure; states: \(player.recorder.states(of: id))") }
            return error
        }


        @Test("a refused connection is offline, and retryable")
        func refused() async throws {
            let refusing = try RefusingPort()
            // Held, not just read from: the port refuses only while this lives.
            defer { withExtendedLifetime(refusing) {} }
            let error = try await failure(loading: refusing.url("/episode.mp3"))
            #expect(error == .offline(.connectionRefused))
            #expect(error?.isRetryable == true)
        }

        @Test("an unknown host is offline")
        func unknownHost() async throws {
            #expect(try await failure(loading: "http://trackcast-test.invalid/episode.mp3") == .offline(.hostNotFound))
        }

        @Test("a server that accepts and never answers is a timeout")
        func stall() async throws {
            let server = try TestHTTPServer()
            server.route("/episode.mp3", .stall)
            let error = try await failure(loading: server.url("/episode.mp3")) {
                $0.loadTimeout = .seconds(3)
                $0.networkTimeout = .seconds(2)
            }
            #expect(error == .timeout)
            #expect(error?.isRetryable == true)
        }

        @Test("a server that stops sending in the middle of playback is a timeout")
        func stallWhilePlaying() async throws {
            let server = try TestHTTPServer()
            server.route("/a.wav", .stallAfter(bytes: 400_000, try await MediaFixtures.shared.data(.wav), contentType: "audio/wav"))
            let player = try await TestPlayer { $0.networkTimeout = .seconds(2); $0.forwardBuffer = .seconds(1) }
            let id = try await player.play(server.url("/a.wav"))
            #expect(await player.recorder.failure(of: id) == .timeout)
        }

        @Test("HTTP error statuses keep their code", arguments: [403, 404, 410, 500, 503])
        func httpStatus(_ status: Int) async throws {
            let server = try TestHTTPServer()
            server.route("/episode.mp3", .status(status))
            let error = try await failure(loading: server.url("/episode.mp3"))
            #expect(error == .httpStatus(status))
            #expect(error?.isRetryable == (status >= 500))
            #expect(error?.message.contains(String(status)) == true)
        }

        @Test("a connection reset before any data is a lost connection")
        func reset() async throws {
            let server = try TestHTTPServer()
            server.route("/episode.mp3", .reset)
            #expect(try await failure(loading: server.url("/episode.mp3")) == .connectionLost)
        }

        @Test("a truncated MP4 is corrupt media, from disk and over HTTP")
        func truncated() async throws {
            let url = try await MediaFixtures.shared.url(.truncatedMP4)
            #expect(try await failure(loading: url.absoluteString) == .corruptMedia)
            let server = try TestHTTPServer()
            server.route("/episode.m4a", .truncated(try await MediaFixtures.shared.data(.aac), contentType: "audio/mp4",
                                                    fraction: 0.5))
            let overHTTP = try await failure(loading: server.url("/episode.m4a"))
            #expect(overHTTP == .corruptMedia || overHTTP == .connectionLost, "got \(String(describing: overHTTP))")
        }

        @Test("a codec no installed plug-in decodes is a missing codec, named")
        func missingCodec() async throws {
            let url = try await MediaFixtures.shared.url(.unknownCodec)
            let error = try await failure(loading: url.absoluteString)
            guard case .missingCodec(let what)? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(what.contains("audio/x-unknown"))
            #expect(error?.isRetryable == false)
        }

        @Test("bytes that are no media format are unsupported")
        func unsupported() async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("noise-\(UUID()).mp3")
            try Data((0..<20_000).map { _ in UInt8.random(in: 0...255) }).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try await failure(loading: file.absoluteString) == .unsupportedMedia)
        }

        @Test("a local file that is not there is not found")
        func missingFile() async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID()).mp3")
            #expect(try await failure(loading: file.absoluteString) == .fileNotFound)
        }
    }
}
