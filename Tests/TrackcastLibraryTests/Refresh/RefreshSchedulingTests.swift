import Foundation
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

    @Test("a host's next requests go out while the library is busy writing, a bounded few")
    func fetchingAheadOfTheStore() async throws {
        let server = try TestHTTPServer()
        let harness = try await RefreshHarness()
        try await Self.subscribe(harness, [server], showsPerHost: 8)
        for show in 0..<8 {
            server.route("/\(show).xml", .document(PodcastFeedWriter(title: "Show \(show)", episodes: 3).data(),
                                                   contentType: "application/rss+xml"))
        }
        // Another process holds the write lock: the store waits on it (for
        // up to its busy timeout of 5 s) with the first feed.
        let other = try harness.directory.openConnection()
        try other.executeScript("BEGIN IMMEDIATE")
        let before = server.log.count
        let refresher = harness.refresher
        let refresh = Task { try await refresher.refreshAll() }
        let deadline = ContinuousClock.now + .seconds(3)
        while server.log.count < before + 5, .now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        // Long enough for one more request to show, were the lane unbounded.
        try await Task.sleep(for: .milliseconds(300))
        let fetchedWhileLocked = server.log.count - before
        try other.executeScript("COMMIT")
        let reports = try await refresh.value

        // The first feed waits for the store, four more are fetched behind it, the rest wait.
        #expect(fetchedWhileLocked == 5)
        #expect(reports.count == 8)
        #expect(reports.allSatisfy { !$0.isFailure })
        #expect(server.maxConcurrentRequests == 1)
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
        // The slow host's other shows waited their turn behind it.
        #expect(try #require(order.firstIndex(of: slow.url("/1.xml"))) > slowFinished)
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
