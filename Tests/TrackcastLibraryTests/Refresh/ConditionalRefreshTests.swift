import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Refresh: conditional GET, gzip, changed feeds")
struct ConditionalRefreshTests {
    @Test("an unchanged feed answers 304 to the stored ETag: nothing parsed, refresh time recorded")
    func etagNotModified() async throws {
        let server = try TestHTTPServer()
        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Tagged", episodes: 12).data(),
                                           contentType: "application/rss+xml", etag: "\"v1\""))
        let harness = try await RefreshHarness()
        let subscribed = try await harness.subscribe(server.url("/feed.xml"))
        #expect(subscribed.refresh.etag == "\"v1\"")

        let reports = try await harness.refreshAll()

        #expect(reports.map(\.outcome) == [.notModified])
        let second = try #require(server.log(for: "/feed.xml").last)
        #expect(second.headers["if-none-match"] == "\"v1\"")
        #expect(second.status == 304)
        let show = try #require(try await harness.store.show(subscribed.id))
        #expect(show.refresh.lastRefreshed != nil)
        #expect(show.refresh.lastFailure == nil)
        #expect(try await harness.store.episodes(of: show.id, limit: 100).count == 12)
    }

    @Test("a server with only Last-Modified gets If-Modified-Since and answers 304")
    func lastModifiedNotModified() async throws {
        let server = try TestHTTPServer()
        let stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Dated", episodes: 3).data(),
                                           contentType: "application/rss+xml", lastModified: stamp))
        let harness = try await RefreshHarness()
        try await harness.subscribe(server.url("/feed.xml"))

        let reports = try await harness.refreshAll()

        #expect(reports.map(\.outcome) == [.notModified])
        let second = try #require(server.log(for: "/feed.xml").last)
        #expect(second.headers["if-modified-since"] == stamp)
        #expect(second.headers["if-none-match"] == nil)
    }

    @Test("a server with no validators sending the same feed again: recorded as not modified, nothing parsed")
    func sameBytesWithoutValidators() async throws {
        let server = try TestHTTPServer()
        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Plain", episodes: 30).data(),
                                           contentType: "application/rss+xml"))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/feed.xml"))
        #expect(show.refresh.etag == nil && show.refresh.lastModified == nil)
        #expect(show.refresh.feedLayout != nil)

        // Parsing and comparing would report `.updated` with 30 unchanged.
        #expect(try await harness.refreshAll().map(\.outcome) == [.notModified])
        #expect(server.log(for: "/feed.xml").map(\.status) == [200, 200], "the feed was fetched whole both times")

        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Plain", episodes: 31).data(),
                                           contentType: "application/rss+xml"))
        // Only the item added at the top is parsed (`FeedDocumentLayout`): none compared unchanged.
        let expected = FeedApplyResult(showID: show.id, isNewShow: false, inserted: 1, updated: 0, unchanged: 0,
                                       duplicates: 0, arrivals: [EpisodeID(rawValue: 31)])
        #expect(try await harness.refreshAll().map(\.outcome) == [.updated(expected)])
        #expect(try await harness.refreshAll().map(\.outcome) == [.notModified])
    }

    @Test("a Data is hashed in place to the same FNV-1a as its bytes one by one, the published vectors included")
    func digestOfDataInPlace() {
        func hash(_ data: Data) -> UInt64 { var h = FNV1a(); h.add(data); return h.value }
        func hashByBytes(_ bytes: [UInt8]) -> UInt64 { var h = FNV1a(); h.add(bytes); return h.value }
        #expect(hash(Data()) == 0xcbf2_9ce4_8422_2325)
        #expect(hash(Data("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(hash(Data("foobar".utf8)) == 0x8594_4171_f739_67e8)
        let feed = PodcastFeedWriter(title: "Plain", episodes: 3).data()
        #expect(hash(feed) == hashByBytes(Array(feed)))
        #expect(hash(feed.dropFirst(7)) == hashByBytes(Array(feed.dropFirst(7))), "a slice starts at its own first byte")
    }

    @Test("the feed digest covers the address, the content type and the app version as well as the bytes")
    func digestInputs() throws {
        let feed = PodcastFeedWriter(title: "Plain", episodes: 2).data()
        let url = try #require(URL(string: "https://example.org/feed.xml"))
        func digest(_ data: Data, url: URL, contentType: String = "application/rss+xml", appVersion: String = "1.0") -> Int64 {
            FeedDocumentDigest(url: url, contentType: contentType, appVersion: appVersion).of(data, 0..<data.count)
        }
        let whole = digest(feed, url: url)
        #expect(whole == digest(feed, url: url))
        #expect(whole != digest(feed, url: try #require(URL(string: "https://example.org/other/feed.xml"))),
                "relative links resolve against the address")
        #expect(whole != digest(feed, url: url, contentType: "application/rss+xml; charset=windows-1252"),
                "the HTTP header can name the encoding")
        #expect(whole != digest(feed, url: url, appVersion: "1.1"), "a newer Trackcast parses every feed once more")

        // Every byte counts, in either lane and in the last partial word, and so does the length.
        let short = feed.prefix(45)
        var digests: Set<Int64> = [digest(short, url: url), digest(short + [0], url: url), digest(short.dropLast(), url: url)]
        for offset in short.indices {
            var changed = short
            changed[offset] ^= 0x20
            digests.insert(digest(changed, url: url))
        }
        #expect(digests.count == short.count + 3)
    }

    @Test("a changed feed writes only its new and changed episodes, and the new validators")
    func changedFeed() async throws {
        let server = try TestHTTPServer()
        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Growing", episodes: 20).data(),
                                           contentType: "application/rss+xml", etag: "\"a\""))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/feed.xml"))

        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Growing", episodes: 22).data(),
                                           contentType: "application/rss+xml", etag: "\"b\""))
        let reports = try await harness.refreshAll()

        // Two items added at the top: only they are parsed.
        let expected = FeedApplyResult(showID: show.id, isNewShow: false, inserted: 2, updated: 0, unchanged: 0,
                                       duplicates: 0, arrivals: [EpisodeID(rawValue: 22), EpisodeID(rawValue: 21)])
        #expect(reports.map(\.outcome) == [.updated(expected)])
        #expect(try await harness.store.show(show.id)?.refresh.etag == "\"b\"")
        #expect(try await harness.store.show(show.id)?.newCount == 2)

        // Every title changed: parsed whole.
        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Growing", episodes: 23, revision: 1).data(),
                                           contentType: "application/rss+xml", etag: "\"c\""))
        let revised = FeedApplyResult(showID: show.id, isNewShow: false, inserted: 1, updated: 22, unchanged: 0,
                                      duplicates: 0, arrivals: [EpisodeID(rawValue: 23)])
        #expect(try await harness.refreshAll().map(\.outcome) == [.updated(revised)])
        let titles = try await harness.store.episodes(of: show.id, limit: 30).map(\.title)
        #expect(titles.count == 23 && titles.allSatisfy { $0?.hasPrefix("(r1) ") == true })
    }

    @Test("a feed is asked for uncompressed, so that the bytes that arrive are the bytes counted; a server that would compress it sends it plain")
    func identity() async throws {
        let server = try TestHTTPServer()
        let feed = PodcastFeedWriter(title: "Plain", episodes: 40).data()
        server.route("/feed.xml", .document(feed, contentType: "application/rss+xml", gzip: true))
        let harness = try await RefreshHarness()

        let show = try await harness.subscribe(server.url("/feed.xml"))

        let request = try #require(server.log(for: "/feed.xml").first)
        #expect(request.headers["accept-encoding"] == "identity")
        #expect(show.title == "Plain")
        #expect(try await harness.store.episodes(of: show.id, limit: 100).count == 40)
    }

    /// A gzip member header, then `count` empty stored blocks: inflates to
    /// nothing however long it runs, so no cap on decompressed bytes stops it.
    private static func inflatingToNothing(blocks count: Int) -> Data {
        var data = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03])
        for _ in 0..<count { data.append(contentsOf: [0x00, 0x00, 0x00, 0xFF, 0xFF]) }
        return data
    }

    @Test("a server that compresses the feed anyway is refused at its head: a gzip bomb, and a stream that inflates to nothing", arguments: [false, true])
    func compressedAnyway(bomb: Bool) async throws {
        let server = try TestHTTPServer()
        // 60 MB of zeros in 60 KB; 20 MB that inflate to nothing.
        let body = bomb ? try TestHTTPServer.gzipped(Data(count: 60 * 1_048_576)) : Self.inflatingToNothing(blocks: 4_000_000)
        server.route("/feed.xml", .encoded(body, contentType: "application/rss+xml", encoding: "gzip"))
        let harness = try await RefreshHarness()

        let failure = try await #require(throws: RefreshFailure.self) { try await harness.subscribe(server.url("/feed.xml")) }

        #expect(server.log(for: "/feed.xml").first?.headers["accept-encoding"] == "identity")
        #expect(failure.message == "The server compressed the feed (gzip) although asked not to.", "\(failure)")
        #expect(try await harness.store.shows().isEmpty)
    }
}
