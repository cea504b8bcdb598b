import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TrackcastLibrary

/// How a refresh spreads its requests: across hosts at once (bounded), one
/// at a time per host. Observed at the servers, by ordering and overlap.
@Suite("Refresh: scheduling across and within hosts")
struct RefreshSchedulingTests {
    /// A feed answered after `wait`, so that concurrent requests overlap for sure.
    static func slowFeed(_ title: String, _ wait: Duration = .milliseconds(150)) -> TestHTTPServer.Behaviour {
        .delay(wait, then: .init(.document(PodcastFeedWriter(title: title, episodes: 2).data(),
                                           contentType: "application/rss+xml")))
    }

    static func subscribe(_ harness: RefreshHarness, _ servers: [TestHTTPServer], showsPerHost: Int) async throws {
        for server in servers {
            for show in 0..<showsPerHost {
                server.route("/\(show).xml", .document(PodcastFeedWriter(title: "\(server.address) \(show)", episodes: 2).data(),
                                                       contentType: "application/rss+xml"))
                try await harness.subscribe(server.url("/\(show).xml"))
            }
        }
    }

    @Test("one request at a time per host, several hosts at once")
    func perHostSerialisation() async throws {
        let hosts = try (1...3).map { try TestHTTPServer(address: "127.0.0.\($0)") }
        let harness = try await RefreshHarness()
        try await Self.subscribe(harness, hosts, showsPerHost: 4)
        for host in hosts {
            for show in 0..<4 { host.route("/\(show).xml", Self.slowFeed("\(host.address) \(show)")) }
        }

        let reports = try await harness.refreshAll()

        #expect(reports.count == 12)
        #expect(reports.allSatisfy { !$0.isFailure })
        for host in hosts {
            #expect(host.maxConcurrentRequests == 1, "\(host.address)")
        }
        let refreshRequests = hosts.map { Array($0.log.suffix(4)) }
        let acrossHosts = refreshRequests[0].contains { a in refreshRequests[1].contains { a.overlaps($0) } }
        #expect(acrossHosts, "requests to different hosts should overlap")
    }

    @Test("no more hosts at once than the limit")
    func boundedHosts() async throws {
        let hosts = try (1...4).map { try TestHTTPServer(address: "127.0.0.\($0)") }
        let options = RefreshOptions(maxConcurrentHosts: 2, timeouts: RefreshHarness.testTimeouts)
        let harness = try await RefreshHarness(options: options)
        try await Self.subscribe(harness, hosts, showsPerHost: 2)
        for host in hosts {
            for show in 0..<2 { host.route("/\(show).xml", Self.slowFeed("\(host.address) \(show)")) }
        }

        _ = try await harness.refreshAll()

        // Each answer takes 150 ms, so no more requests than the limit can
        // start within 100 ms of one another. (Counting the requests a
        // server was still answering at each one's start is not exact: a
        // server notes an answer finished after its last write returns,
        // which under load can be after the client read it and moved on.
        // And a host's next request may go out while its last feeds are
        // applied, so the refresher's own started/finished events overlap more.)
        let starts = hosts.flatMap { $0.log.suffix(2).map(\.started) }
        let mostAtOnce = starts.map { start in
            starts.count { $0 >= start && $0 < start + .milliseconds(100) }
        }.max()
        #expect(mostAtOnce == 2)
        #expect(hosts.allSatisfy { $0.maxConcurrentRequests == 1 })
    }

    /// One test for both bounds, run one after the other: each holds a pool
    /// thread while the store waits on the lock, and two at once would hold
    /// both of the two this machine's tests run on.
    @Test("a host's next requests go out while the library is busy writing: a bounded few, fewer of megabytes")
    func fetchingAheadOfTheStore() async throws {
        let small = (0..<20).map { PodcastFeedWriter(title: "Show \($0)", episodes: 3).data() }
        // The first feed waits for the store, fifteen more are fetched behind it, the rest wait.
        let ahead = FeedRefresher.feedsBehindFetching + 1
        #expect(try await Self.requestsWhileTheLibraryIsLocked(small, expecting: ahead) == ahead)

        // Each feed a little over 3 MiB: two fit within the bytes a lane may hold, the third waits.
        let notes = String(repeating: "Notes. ", count: 3 * 1_048_576 / 7 + 1)
        let large = (0..<6).map { show in
            Data("""
                <?xml version="1.0"?><rss version="2.0"><channel><title>Show \(show)</title>
                <description>\(notes)</description><item><guid>\(show)-1</guid><title>One</title></item>
                </channel></rss>
                """.utf8)
        }
        #expect(large[0].count * 2 <= FeedRefresher.bytesBehindFetching)
        #expect(large[0].count * 3 > FeedRefresher.bytesBehindFetching)
        #expect(try await Self.requestsWhileTheLibraryIsLocked(large, expecting: 3) == 3)
    }

    /// Refreshes one host's shows, serving `feeds`, while another process
    /// holds the library's write lock (the store waits on it for up to its
    /// busy timeout of 5 s, with the first feed); returns how many requests
    /// the host saw before the lock was let go: once `expected` came (or 3 s
    /// passed), and long enough after for one more to show, were the lane
    /// unbounded. Every show must then refresh.
    private static func requestsWhileTheLibraryIsLocked(_ feeds: [Data], expecting expected: Int) async throws -> Int {
        let server = try TestHTTPServer()
        let harness = try await RefreshHarness()
        try await subscribe(harness, [server], showsPerHost: feeds.count)
        for (show, feed) in feeds.enumerated() {
            server.route("/\(show).xml", .document(feed, contentType: "application/rss+xml"))
        }
        let other = try harness.directory.openConnection()
        try other.executeScript("BEGIN IMMEDIATE")
        let before = server.log.count
        let refresher = harness.refresher
        let refresh = Task { try await refresher.refreshAll() }
        let deadline = ContinuousClock.now + .seconds(3)
        while server.log.count < before + expected, .now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(300))
        let fetched = server.log.count - before
        try other.executeScript("COMMIT")
        let reports = try await refresh.value

        #expect(reports.count == feeds.count)
        #expect(reports.allSatisfy { !$0.isFailure })
        #expect(server.maxConcurrentRequests == 1)
        return fetched
    }

    @Test("a slow host holds up only its own shows")
    func slowHost() async throws {
        let slow = try TestHTTPServer(address: "127.0.0.2")
        let fast = try (3...4).map { try TestHTTPServer(address: "127.0.0.\($0)") }
        let harness = try await RefreshHarness()
        try await Self.subscribe(harness, [slow] + fast, showsPerHost: 3)
        slow.route("/0.xml", Self.slowFeed("slow", .milliseconds(1500)))

        _ = try await harness.refreshAll()

        let order = harness.events.finishedURLs
        let slowFinished = try #require(order.firstIndex(of: slow.url("/0.xml")))
        let fastURLs = fast.flatMap { host in (0..<3).map { host.url("/\($0).xml") } }
        for url in fastURLs {
            #expect(try #require(order.firstIndex(of: url)) < slowFinished, "\(url)")
        }
        // The slow host's next show waited its turn: its request went out
        // after the slow answer, when the fast hosts were long done.
        let secondStarted = try #require(harness.events.all.firstIndex {
            if case .started(_, let url) = $0 { url.absoluteString == slow.url("/1.xml") } else { false }
        })
        for url in fastURLs {
            #expect(try #require(harness.events.all.firstIndex { $0.finishedURL == url }) < secondStarted, "\(url)")
        }
    }

    @Test("a show is reported finished when it is applied, while its host's next request is still out")
    func finishedWhileTheNextIsFetched() async throws {
        let server = try TestHTTPServer()
        // The second answer may wait 2 s by design: the harness's 3 s total
        // left a busy machine (load 7) too little for the rest.
        let harness = try await RefreshHarness(options: RefreshOptions(timeouts: HTTPTimeouts(connect: .seconds(1),
                                                                                           total: .seconds(10))))
        try await Self.subscribe(harness, [server], showsPerHost: 2)
        let first = server.url("/0.xml"), events = harness.events
        let reportedDuringSecond = Atomic(false)
        let second = PodcastFeedWriter(title: "\(server.address) 1", episodes: 2).data()
        // The second answer waits (up to 2 s) for the first show's report.
        server.route("/1.xml", .handler { _ in
            let deadline = ContinuousClock.now + .seconds(2)
            while !events.finishedURLs.contains(first), .now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            reportedDuringSecond.store(events.finishedURLs.contains(first), ordering: .relaxed)
            return .init(status: 200, headers: ["Content-Type": "application/rss+xml"], body: second)
        })

        let reports = try await harness.refreshAll()

        #expect(reports.allSatisfy { !$0.isFailure })
        let reported = reportedDuringSecond.load(ordering: .relaxed)
        #expect(reported, "the first show was reported only after its host's next answer")
    }

    @Test("progress reports every show as started, then finished")
    func progress() async throws {
        let server = try TestHTTPServer()
        let harness = try await RefreshHarness()
        try await Self.subscribe(harness, [server], showsPerHost: 3)

        let reports = try await harness.refreshAll()

        let events = harness.events.all
        #expect(events.count == 6)
        for report in reports {
            let started = events.firstIndex(of: .started(report.showID, feedURL: report.feedURL))
            let finished = events.firstIndex(of: .finished(report))
            #expect(started != nil && finished != nil && started! < finished!)
        }
    }
}
