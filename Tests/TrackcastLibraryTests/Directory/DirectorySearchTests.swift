import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// Both directories against loopback servers answering with fixtures in
/// the services' documented formats.
@Suite("Directory search: results, signatures and failures")
struct DirectorySearchTests {
    static let client = HTTPClient(userAgent: "Trackcast-Tests/1")
    static let quickTimeouts = HTTPTimeouts(connect: .seconds(1), total: .seconds(2))

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/directory/" + name))
    }

    static func iTunes(_ server: TestHTTPServer) -> ITunesDirectory {
        ITunesDirectory(client: client, searchURL: URL(string: server.url("/search"))!, timeouts: quickTimeouts)
    }

    static func podcastIndex(_ server: TestHTTPServer, now: Date = Date()) -> PodcastIndexDirectory {
        PodcastIndexDirectory(client: client, key: "UXKCGDSYGUUEVQJSYDZH", secret: "yzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN|",
                              apiURL: URL(string: server.url("/api/1.0/"))!, timeouts: quickTimeouts, now: { now })
    }

    @Test("iTunes: results read with title, author, feed, artwork, count and genre; the term sent as a query")
    func iTunesResults() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/search", .serve(try Self.fixture("itunes-search.json"), contentType: "text/javascript; charset=utf-8"))

        let results = try await Self.iTunes(server).search("daily & news")

        #expect(results.map(\.title) == ["The Daily", "<span foreground=\"red\">Markup</span> & Friends"])
        let daily = try #require(results.first)
        #expect(daily.author == "The Daily Team")
        #expect(daily.feedURL == URL(string: "https://feeds.example.com/the-daily.xml"))
        #expect(daily.artworkURL == URL(string: "https://is1-ssl.mzstatic.example.com/image/thumb/600x600bb.jpg"))
        #expect(daily.episodeCount == 2100)
        #expect(daily.genre == "Daily News")
        // Without a 600 px image the 100 px one; markup kept as text, never interpreted here.
        #expect(results[1].artworkURL == URL(string: "http://example.org/markup-100.jpg"))
        #expect(results[1].author == "<b>Bold</b> & Co")
        let request = try #require(server.log(for: "/search").first)
        #expect(request.requestLine.contains("term=daily%20%26%20news") || request.requestLine.contains("term=daily+%26+news"),
                "\(request.requestLine)")
        #expect(request.requestLine.contains("media=podcast"))
        #expect(request.headers["user-agent"] == "Trackcast-Tests/1")
    }

    @Test("iTunes: file, javascript and missing feed addresses are dropped, as are non-web artwork addresses")
    func iTunesDropsNonWebAddresses() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/search", .serve(try Self.fixture("itunes-search.json"), contentType: "application/json"))

        let results = try await Self.iTunes(server).search("anything")

        #expect(!results.contains { $0.title == "Points at a file" || $0.title == "Script link" || $0.title == "No public feed" })
        #expect(results.allSatisfy { ["http", "https"].contains($0.feedURL.scheme) })
        #expect(results.allSatisfy { $0.artworkURL.map { ["http", "https"].contains($0.scheme) } ?? true })
    }

    @Test("Podcast Index: the request is signed with key, date and SHA-1 of key + secret + date")
    func podcastIndexSignature() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/api/1.0/search/byterm", .serve(try Self.fixture("podcastindex-search.json"), contentType: "application/json"))
        let now = Date(timeIntervalSince1970: 1_714_650_000)

        _ = try await Self.podcastIndex(server, now: now).search("podcasting 2.0")

        let request = try #require(server.log(for: "/api/1.0/search/byterm").first)
        #expect(request.headers["x-auth-key"] == "UXKCGDSYGUUEVQJSYDZH")
        #expect(request.headers["x-auth-date"] == "1714650000")
        let expected = SHA1.hexDigest(Array("UXKCGDSYGUUEVQJSYDZHyzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN|1714650000".utf8))
        #expect(request.headers["authorization"] == expected)
        #expect(request.headers["user-agent"] == "Trackcast-Tests/1")
        #expect(request.requestLine.contains("q=podcasting%202.0") || request.requestLine.contains("q=podcasting+2.0"),
                "\(request.requestLine)")
    }

    @Test("Podcast Index: feeds read; artwork falls back to image, author to owner; ftp and untitled feeds dropped")
    func podcastIndexResults() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/api/1.0/search/byterm", .serve(try Self.fixture("podcastindex-search.json"), contentType: "application/json"))

        let results = try await Self.podcastIndex(server).search("podcasting")

        #expect(results.map(\.title) == ["Podcasting 2.0", "Image only"])
        #expect(results[0] == DirectoryResult(
            title: "Podcasting 2.0", author: "Podcast Index LLC",
            feedURL: URL(string: "https://mp3s.nashownotes.example.com/pc20rss.xml")!,
            artworkURL: URL(string: "https://noagendaassets.example.com/enc/pc20artwork.png"), episodeCount: 180,
            genre: "News"))
        #expect(results[1].artworkURL == URL(string: "http://example.net/image.png"))
        #expect(results[1].author == "An Owner")
        #expect(results[1].genre == nil)
    }

    @Test("Podcast Index: a refusal in the body (status false) is a bad response, a 401 an HTTP status")
    func podcastIndexRefusals() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/api/1.0/search/byterm", .serve(Data(#"{"status":"false","description":"Authorization header date too far off"}"#.utf8),
                                                      contentType: "application/json"))
        await #expect(throws: DirectorySearchError.badResponse("Authorization header date too far off")) {
            try await Self.podcastIndex(server).search("x")
        }
        server.route("/api/1.0/search/byterm", .status(401))
        await #expect(throws: DirectorySearchError.httpStatus(401)) { try await Self.podcastIndex(server).search("x") }
    }

    static let failures: [(String, TestHTTPServer.Behaviour, @Sendable (DirectorySearchError) -> Bool)] = [
        ("500", .status(500), { $0 == .httpStatus(500) }),
        ("no answer", .stall, { $0 == .timeout }),
        ("reset", .reset, { if case .offline = $0 { true } else { false } }),
        ("not JSON", .serve(Data("<html><body>Maintenance</body></html>".utf8), contentType: "text/html"),
         { if case .badResponse = $0 { true } else { false } }),
        ("JSON cut short", .serve(Data(#"{"resultCount":1,"results":[{"collectionName":"A""#.utf8), contentType: "application/json"),
         { if case .badResponse = $0 { true } else { false } }),
        ("an array, not an object", .serve(Data("[1, 2]".utf8), contentType: "application/json"),
         { if case .badResponse = $0 { true } else { false } }),
        ("no results list", .serve(Data(#"{"resultCount":0,"results":"none"}"#.utf8), contentType: "application/json"),
         { if case .badResponse = $0 { true } else { false } }),
    ]

    @Test("failures are classified for both directories", arguments: failures.indices)
    func failure(_ index: Int) async throws {
        let (_, behaviour, matches) = Self.failures[index]
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/search", behaviour)
        server.route("/api/1.0/search/byterm", behaviour)
        let directories: [any PodcastDirectory] = [Self.iTunes(server), Self.podcastIndex(server)]
        for directory in directories {
            do {
                let results = try await directory.search("x")
                Issue.record("\(directory.name) found \(results.count) results")
            } catch let error as DirectorySearchError {
                #expect(matches(error), "\(directory.name): \(error)")
            }
        }
    }

    @Test("a refused connection is offline")
    func refused() async throws {
        let refusing = try RefusingPort()
        // Held, not just read from: the port refuses only while this lives.
        defer { withExtendedLifetime(refusing) {} }
        let url = URL(string: refusing.url("/search"))!
        await #expect {
            try await ITunesDirectory(client: Self.client, searchURL: url, timeouts: Self.quickTimeouts).search("x")
        } throws: { error in
            if case .offline = error as? DirectorySearchError { true } else { false }
        }
    }

    @Test("entries of the wrong shape are skipped, not fatal")
    func oddEntries() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/search", .serve(Data(#"""
            {"results":[42, "text", null, {"collectionName":7,"feedUrl":"https://a.example/f"},
                        {"collectionName":"Fine","feedUrl":"https://b.example/f","trackCount":-3,"artistName":["x"]},
                        {"collectionName":"Twice","feedUrl":"https://b.example/f"}]}
            """#.utf8), contentType: "application/json"))

        let results = try await Self.iTunes(server).search("x")

        #expect(results == [DirectoryResult(title: "Fine", author: nil, feedURL: URL(string: "https://b.example/f")!,
                                            artworkURL: nil, episodeCount: nil, genre: nil)])
    }
}
