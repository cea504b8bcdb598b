import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Refresh: failures are classified, recorded, and stop nothing else")
struct FailingRefreshTests {
    static let fine = PodcastFeedWriter(title: "Fine", episodes: 3).data()

    /// Each case: what the failing server does, and the kind the show must record.
    static let cases: [(String, TestHTTPServer.Behaviour, RefreshFailure.Kind)] = [
        ("404", .status(404), .httpStatus),
        ("500", .status(500), .httpStatus),
        ("reset", .reset, .network),
        ("no answer", .stall, .timeout),
        ("body stalls", .stallAfter(bytes: 200, fine, contentType: "application/rss+xml"), .timeout),
        ("cut short", .truncated(fine, contentType: "application/rss+xml", fraction: 0.5), .network),
        ("web page", .serve(Data("<!DOCTYPE html><html><body>Hi</body></html>".utf8), contentType: "text/html"), .invalidFeed),
        ("not XML", .serve(Data("{\"json\": true}".utf8), contentType: "application/json"), .invalidFeed),
        ("too large", .serve(PodcastFeedWriter(title: "Huge", episodes: 400).data(), contentType: "application/rss+xml"), .tooLarge),
    ]

    @Test("a failing server's show records its kind; the show on a working server refreshes",
          arguments: cases.indices)
    func failure(_ index: Int) async throws {
        let (_, behaviour, kind) = Self.cases[index]
        let failing = try TestHTTPServer()
        let working = try TestHTTPServer(address: "127.0.0.2")
        failing.route("/feed.xml", .document(Self.fine, contentType: "application/rss+xml"))
        working.route("/feed.xml", .document(Self.fine, contentType: "application/rss+xml", etag: "\"w\""))
        let options = RefreshOptions(timeouts: RefreshHarness.testTimeouts, maxFeedBytes: 100_000)
        let harness = try await RefreshHarness(options: options)
        let broken = try await harness.subscribe(failing.url("/feed.xml"))
        let healthy = try await harness.subscribe(working.url("/feed.xml"))
        failing.route("/feed.xml", behaviour)

        let reports = try await harness.refreshAll()

        let failure = try #require(try await harness.store.show(broken.id)?.refresh.lastFailure)
        #expect(failure.kind == kind, "\(failure)")
        #expect(!failure.message.isEmpty)
        #expect(reports.first { $0.showID == broken.id }?.outcome == .failed(failure))
        #expect(reports.first { $0.showID == healthy.id }?.outcome == .notModified)
        #expect(try await harness.store.episodes(of: broken.id, limit: 10).count == 3)
    }

    @Test("the next good refresh clears the recorded failure")
    func recovery() async throws {
        let server = try TestHTTPServer()
        server.route("/feed.xml", .document(Self.fine, contentType: "application/rss+xml"))
        let harness = try await RefreshHarness()
        let show = try await harness.subscribe(server.url("/feed.xml"))
        server.route("/feed.xml", .status(503))
        _ = try await harness.refreshAll()
        #expect(try await harness.store.show(show.id)?.refresh.lastFailure?.kind == .httpStatus)

        server.route("/feed.xml", .document(Self.fine, contentType: "application/rss+xml"))
        _ = try await harness.refreshAll()

        #expect(try await harness.store.show(show.id)?.refresh.lastFailure == nil)
    }

    @Test("a server that is not there fails as a network error")
    func refused() async throws {
        let gone = try RefusingPort()
        // Held, not just read from: the port refuses only while this lives.
        defer { withExtendedLifetime(gone) {} }
        let url = URL(string: gone.url("/feed.xml"))!
        let harness = try await RefreshHarness()
        let added = try await harness.store.addShows([FeedSubscription(feedURL: url)])

        _ = try await harness.refreshAll()

        #expect(try await harness.store.show(added[0])?.refresh.lastFailure?.kind == .network)
    }

    @Test("subscribing to something that is not a feed throws and writes nothing")
    func subscribeNotAFeed() async throws {
        let server = try TestHTTPServer()
        server.route("/page", .serve(Data("<!DOCTYPE html><html><body>Hi</body></html>".utf8), contentType: "text/html"))
        server.route("/missing", .status(404))
        let harness = try await RefreshHarness()

        await #expect(throws: RefreshFailure.self) { try await harness.subscribe(server.url("/page")) }
        await #expect(throws: RefreshFailure.self) { try await harness.subscribe(server.url("/missing")) }

        #expect(try await harness.store.shows().isEmpty)
    }

    @Test("cancelling a refresh stops the transfer in flight and records no failure")
    func cancel() async throws {
        let server = try TestHTTPServer()
        server.route("/feed.xml", .document(Self.fine, contentType: "application/rss+xml"))
        let harness = try await RefreshHarness(options: RefreshOptions(
            timeouts: HTTPTimeouts(connect: .seconds(60), total: .seconds(60))))
        let show = try await harness.subscribe(server.url("/feed.xml"))
        server.route("/feed.xml", .stall)

        let refresher = harness.refresher
        let refresh = Task { try await refresher.refreshAll() }
        while server.log.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        refresh.cancel()
        let reports = try await refresh.value

        #expect(reports.map(\.outcome) == [.cancelled])
        #expect(try await harness.store.show(show.id)?.refresh.lastFailure == nil)
    }
}
