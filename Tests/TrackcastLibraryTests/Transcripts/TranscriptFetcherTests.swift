import Foundation
import TestSupport
import Testing
import TrackcastLibrary

@Suite("Transcript fetcher")
struct TranscriptFetcherTests {
    static let client = HTTPClient(userAgent: "test")

    static func fetcher(_ cache: TemporaryDirectory, languages: [String] = ["en-US"],
                        timeouts: HTTPTimeouts = TranscriptFetcher.defaultTimeouts,
                        client: HTTPClient = client) -> TranscriptFetcher {
        TranscriptFetcher(client: client, cacheDirectory: cache.url, preferredLanguages: languages, timeouts: timeouts)
    }

    static func transcript(_ server: TestHTTPServer, _ path: String, type: String?, language: String? = nil) -> FeedTranscript {
        FeedTranscript(url: URL(string: server.url(path))!, type: type, language: language)
    }

    @Test("each format is fetched over HTTP and parsed: WebVTT, SubRip, JSON, HTML", arguments: [
        ("sample.vtt", "text/vtt", true), ("sample.srt", "application/x-subrip", true),
        ("sample.json", "application/json", true), ("sample.html", "text/html", false),
    ])
    func fetchesEachFormat(file: String, type: String, timed: Bool) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/t/" + file, .serve(try TranscriptTests.fixture(file), contentType: type))
        let cache = try TemporaryDirectory()
        let fetched = try await Self.fetcher(cache).transcript(
            for: EpisodeID(rawValue: 1), from: [Self.transcript(server, "/t/" + file, type: type)])
        #expect(!fetched.fromCache)
        #expect(fetched.transcript.isTimed == timed)
        #expect(fetched.transcript.cues.first?.text == "Welcome to the show.")
    }

    @Test("the choice among several: the reader's language first, then timed formats before HTML, then the feed's order")
    func choosesTheBest() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let html = Self.transcript(server, "/en.html", type: "text/html", language: "en")
        let srt = Self.transcript(server, "/en.srt", type: "application/srt", language: "en")
        let vtt = Self.transcript(server, "/en.vtt", type: "text/vtt", language: "en")
        let json = Self.transcript(server, "/en.json", type: "application/json", language: "en")
        let germanVTT = Self.transcript(server, "/de.vtt", type: "text/vtt", language: "de-DE")
        let unstated = Self.transcript(server, "/any.vtt", type: nil)
        let pdf = Self.transcript(server, "/en.pdf", type: "application/pdf", language: "en")
        let cache = try TemporaryDirectory()

        let english = Self.fetcher(cache, languages: ["en_GB"])
        #expect(english.candidates([html, srt, json, vtt, pdf]).map(\.0) == [vtt, json, srt, html], "timed first; PDF unread")
        #expect(english.candidates([germanVTT, html]).map(\.0) == [html, germanVTT], "the reader's language beats timing")
        #expect(english.candidates([germanVTT, unstated]).map(\.0) == [unstated, germanVTT],
                "no language stated is likelier the reader's than another language")
        #expect(english.candidates([unstated]).map(\.1) == [.webVTT], "the format from the address's extension")
        let german = Self.fetcher(cache, languages: ["de-AT", "en"])
        #expect(german.candidates([html, germanVTT, vtt]).map(\.0) == [germanVTT, vtt, html])
        let second = Self.transcript(server, "/second.vtt", type: "text/vtt", language: "en")
        #expect(english.candidates([second, vtt]).map(\.0) == [second, vtt], "ties keep the feed's order")
    }

    @Test("a second open reads the cache with the server stopped; the best transcript is the one fetched")
    func cacheWorksOffline() async throws {
        let server = try TestHTTPServer()
        server.route("/t.vtt", .serve(try TranscriptTests.fixture("sample.vtt"), contentType: "text/vtt"))
        server.route("/t.html", .serve(try TranscriptTests.fixture("sample.html"), contentType: "text/html"))
        let transcripts = [Self.transcript(server, "/t.html", type: "text/html"), Self.transcript(server, "/t.vtt", type: "text/vtt")]
        let cache = try TemporaryDirectory()
        let fetcher = Self.fetcher(cache)
        let first = try await fetcher.transcript(for: EpisodeID(rawValue: 3), from: transcripts)
        #expect(first.source == transcripts[1] && first.transcript.isTimed && !first.fromCache)
        #expect(server.log(for: "/t.html").isEmpty, "only the best is fetched when it works")
        server.stop()

        // A new client, as the next start of the app has: the old one's kept-alive connection would still answer.
        let offline = Self.fetcher(cache, client: HTTPClient(userAgent: "test"))
        let again = try await offline.transcript(for: EpisodeID(rawValue: 3), from: transcripts)
        #expect(again.fromCache)
        #expect(again.transcript == first.transcript)
        // Another episode has no cache of its own, and its server refuses (a
        // port held refusing: the stopped server's could be another test's by now).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let unreachable = transcripts.map { transcript in
            var moved = transcript
            moved.url = URL(string: refusing.url(transcript.url.path))!
            return moved
        }
        await #expect(throws: TranscriptFetcher.Failure.self) {
            try await offline.transcript(for: EpisodeID(rawValue: 4), from: unreachable)
        }
    }

    @Test("a failing best transcript falls back to the next one")
    func fallsBack() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/gone.vtt", .status(404))
        server.route("/t.srt", .serve(try TranscriptTests.fixture("sample.srt"), contentType: "application/x-subrip"))
        let cache = try TemporaryDirectory()
        let fetched = try await Self.fetcher(cache).transcript(for: EpisodeID(rawValue: 5), from: [
            Self.transcript(server, "/t.srt", type: "application/x-subrip"), Self.transcript(server, "/gone.vtt", type: "text/vtt"),
        ])
        #expect(fetched.source.url.path == "/t.srt")
        #expect(server.log(for: "/gone.vtt").count == 1)
    }

    @Test("failures are classified: 404, timeout, garbage, a web page for a VTT file, nothing readable")
    func failuresClassified() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/missing.vtt", .status(404))
        server.route("/stalled.vtt", .stall)
        server.route("/garbage.vtt", .serve(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }),
                                            contentType: "text/vtt"))
        server.route("/page.vtt", .serve(Data("<html><body><p>Not found</p></body></html>".utf8), contentType: "text/html"))
        let cache = try TemporaryDirectory()
        let fetcher = Self.fetcher(cache, timeouts: HTTPTimeouts(connect: .seconds(1), total: .seconds(2)))
        func failure(_ path: String) async -> TranscriptFetcher.Failure? {
            do {
                _ = try await fetcher.transcript(for: EpisodeID(rawValue: 6), from: [Self.transcript(server, path, type: "text/vtt")])
                return nil
            } catch {
                return error as? TranscriptFetcher.Failure
            }
        }
        #expect(await failure("/missing.vtt") == .status(404))
        #expect(await failure("/stalled.vtt") == .timeout)
        #expect(await failure("/garbage.vtt") == .unreadable)
        #expect(await failure("/page.vtt") == .unreadable)
        await #expect(throws: TranscriptFetcher.Failure.noReadableTranscript) {
            try await fetcher.transcript(for: EpisodeID(rawValue: 6), from: [])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.url.path).isEmpty, "nothing unreadable is cached")
    }

    @Test("only web addresses are fetched: file:, javascript:, data: and ftp: transcripts are refused unread")
    func refusesOtherSchemes() async throws {
        let secret = try TemporaryDirectory()
        let local = secret.url.appendingPathComponent("secret.vtt")
        try TranscriptTests.fixture("sample.vtt").write(to: local)
        let refused = [
            FeedTranscript(url: local, type: "text/vtt"),
            FeedTranscript(url: URL(string: "javascript:alert(1)//x.vtt")!, type: "text/vtt"),
            FeedTranscript(url: URL(string: "data:text/vtt,WEBVTT")!, type: "text/vtt"),
            FeedTranscript(url: URL(string: "ftp://example.org/t.vtt")!, type: "text/vtt"),
        ]
        let cache = try TemporaryDirectory()
        let fetcher = Self.fetcher(cache)
        #expect(fetcher.candidates(refused).isEmpty)
        await #expect(throws: TranscriptFetcher.Failure.noReadableTranscript) {
            try await fetcher.transcript(for: EpisodeID(rawValue: 9), from: refused)
        }
    }
}
