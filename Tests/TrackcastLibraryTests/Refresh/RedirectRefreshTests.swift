import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Refresh: redirects and moved feeds")
struct RedirectRefreshTests {
    @Test("a permanent redirect moves the show to the new URL; a temporary one does not",
          arguments: [(301, true), (308, true), (302, false), (307, false)])
    func redirect(status: Int, moves: Bool) async throws {
        let server = try TestHTTPServer()
        let feed = PodcastFeedWriter(title: "Moving", episodes: 5).data()
        server.route("/old.xml", .document(feed, contentType: "application/rss+xml", etag: "\"1\""))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/old.xml"))

        server.route("/old.xml", .redirect(status, to: "/new.xml"))
        server.route("/new.xml", .document(PodcastFeedWriter(title: "Moving", episodes: 6).data(),
                                          contentType: "application/rss+xml", etag: "\"2\""))
        let reports = try await harness.refreshAll()

        let stored = try #require(try await harness.store.show(show.id))
        #expect(stored.feedURL.absoluteString == server.url(moves ? "/new.xml" : "/old.xml"))
        #expect(reports.first?.movedFrom?.absoluteString == (moves ? server.url("/old.xml") : nil))
        #expect(try await harness.store.episodes(of: show.id, limit: 100).count == 6)
        #expect(server.log(for: "/new.xml").count == 1)
    }

    @Test("after a permanent redirect the next refresh goes straight to the new URL, conditionally")
    func nextRefreshUsesNewURL() async throws {
        let server = try TestHTTPServer()
        server.route("/old.xml", .redirect(301, to: server.url("/new.xml")))
        server.route("/new.xml", .document(PodcastFeedWriter(title: "Moved", episodes: 2).data(),
                                          contentType: "application/rss+xml", etag: "\"n\""))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/old.xml"))
        #expect(show.feedURL.absoluteString == server.url("/new.xml"))

        let reports = try await harness.refreshAll()

        #expect(reports.map(\.outcome) == [.notModified])
        #expect(server.log(for: "/old.xml").count == 1)
        #expect(server.log(for: "/new.xml").last?.headers["if-none-match"] == "\"n\"")
    }

    @Test("a permanent hop followed by a temporary one moves the show only as far as the permanent hop")
    func mixedChain() async throws {
        let server = try TestHTTPServer()
        server.route("/a.xml", .document(PodcastFeedWriter(title: "Chain", episodes: 1).data(),
                                        contentType: "application/rss+xml"))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/a.xml"))
        server.route("/a.xml", .redirect(301, to: "/b.xml"))
        server.route("/b.xml", .redirect(302, to: "/c.xml"))
        server.route("/c.xml", .document(PodcastFeedWriter(title: "Chain", episodes: 1).data(),
                                        contentType: "application/rss+xml"))

        _ = try await harness.refreshAll()

        #expect(try await harness.store.show(show.id)?.feedURL.absoluteString == server.url("/b.xml"))
    }

    @Test("a redirect loop fails the show as too many redirects and the others still refresh")
    func redirectLoop() async throws {
        let server = try TestHTTPServer()
        let other = try TestHTTPServer(address: "127.0.0.2")
        server.route("/loop.xml", .document(PodcastFeedWriter(title: "Loop", episodes: 1).data(),
                                           contentType: "application/rss+xml"))
        other.route("/fine.xml", .document(PodcastFeedWriter(title: "Fine", episodes: 1).data(),
                                          contentType: "application/rss+xml"))
        let harness = try await RefreshHarness()
        let looping = try await harness.subscribe(server.url("/loop.xml"))
        try await harness.subscribe(other.url("/fine.xml"))
        server.route("/loop.xml", .redirect(302, to: "/loop2.xml"))
        server.route("/loop2.xml", .redirect(302, to: "/loop.xml"))

        let reports = try await harness.refreshAll()

        let failure = try #require(try await harness.store.show(looping.id)?.refresh.lastFailure)
        #expect(failure.kind == .tooManyRedirects)
        #expect(reports.filter(\.isFailure).map(\.showID) == [looping.id])
        #expect(server.log.count <= 1 + 11)
    }

    @Test("itunes:new-feed-url moves the show and drops the old URL's validators")
    func newFeedURL() async throws {
        let server = try TestHTTPServer()
        server.route("/old.xml", .document(PodcastFeedWriter(title: "Announcing", episodes: 3).data(),
                                          contentType: "application/rss+xml", etag: "\"old\""))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/old.xml"))
        server.route("/old.xml", .document(
            PodcastFeedWriter(title: "Announcing", episodes: 3, newFeedURL: server.url("/new.xml")).data(),
            contentType: "application/rss+xml", etag: "\"old2\""))
        server.route("/new.xml", .document(PodcastFeedWriter(title: "Announcing", episodes: 4).data(),
                                          contentType: "application/rss+xml", etag: "\"new\""))

        _ = try await harness.refreshAll()
        let moved = try #require(try await harness.store.show(show.id))
        #expect(moved.feedURL.absoluteString == server.url("/new.xml"))
        #expect(moved.refresh.etag == nil)

        _ = try await harness.refreshAll()
        #expect(server.log(for: "/new.xml").first?.headers["if-none-match"] == nil)
        #expect(try await harness.store.episodes(of: show.id, limit: 100).count == 4)
    }

    @Test("a move to a URL another show already has leaves both shows where they are")
    func moveOntoExistingShow() async throws {
        let server = try TestHTTPServer()
        server.route("/a.xml", .document(PodcastFeedWriter(title: "A", episodes: 1).data(), contentType: "text/xml"))
        server.route("/b.xml", .document(PodcastFeedWriter(title: "B", episodes: 1).data(), contentType: "text/xml"))
        let harness = try await RefreshHarness()
        let a = try await harness.subscribe(server.url("/a.xml"))
        let b = try await harness.subscribe(server.url("/b.xml"))
        server.route("/a.xml", .redirect(301, to: "/b.xml"))

        let reports = try await harness.refreshAll()

        #expect(reports.allSatisfy { !$0.isFailure })
        #expect(try await harness.store.show(a.id)?.feedURL.absoluteString == server.url("/a.xml"))
        #expect(try await harness.store.show(b.id)?.feedURL.absoluteString == server.url("/b.xml"))
    }
}
