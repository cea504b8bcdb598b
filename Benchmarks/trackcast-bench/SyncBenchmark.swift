import Foundation
import TestSupport
import TrackcastLibrary

/// A first sync of 500 subscriptions and 20,000 episode actions (a position
/// for each of 40 episodes of 500 shows) against the loopback gpodder.net
/// server, and a sync with nothing changed on either side (what a refresh
/// adds). The peer is curl sending the same requests, bodies and all, in one
/// process over one connection, to a server in the same state: the cost of
/// the HTTP and the server's own work, without Trackcast's.
struct SyncBenchmark {
    var shows = 500
    var episodesPerShow = 40
    var runs = 3

    func run() async throws -> [BenchRow] {
        let feeds = try TestHTTPServer()
        defer { feeds.stop() }
        var urls: [URL] = []
        for show in 0..<shows {
            let feed = PodcastFeedWriter(title: "Sync Show \(show)", episodes: episodesPerShow)
            feeds.route("/\(show).xml", .document(feed.data(), contentType: "application/rss+xml"))
            urls.append(URL(string: feeds.url("/\(show).xml"))!)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-sync-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await LibraryStore(directory: folder)
        _ = try await store.addShows(urls.map { FeedSubscription(feedURL: $0) })
        let client = HTTPClient(userAgent: "Trackcast-bench")
        _ = try await FeedRefresher(store: store, client: client).refreshAll()
        var episodes: [EpisodeID] = []
        for show in try await store.shows() {
            episodes += try await store.episodes(of: show.id, limit: episodesPerShow).map(\.id)
        }

        var ours: [Double] = [], peers: [Double] = [], requests = 0, quiet: [Double] = [], quietPeers: [Double] = []
        var quietRequests = 0
        for run in 0..<runs {
            let server = try GPodderTestServer(kind: .gpodder)
            defer { server.stop() }
            _ = try await SyncLogin.logIn(server: URL(string: server.url)!, user: "alice", password: "secret",
                                          device: "desktop", store: store, client: client)
            let now = Date()
            try await store.savePositions(episodes.enumerated().map { index, id in
                ResumePositionUpdate(key: .episode(id), position: Double(60 + index % 600 + run), duration: 1800,
                                     updated: now.addingTimeInterval(Double(index) / 1000))
            })
            let synchronizer = Synchronizer(store: store, client: client)
            let before = server.exchanges.count
            var report = SyncReport()
            ours.append(try await Self.time { report = try await synchronizer.sync(password: "secret") })
            guard report.sentSubscriptionChanges == shows, report.sentActions == episodes.count else {
                throw SyncBenchmarkError.incomplete("sent \(report.sentSubscriptionChanges) and \(report.sentActions)")
            }
            let exchanges = Array(server.exchanges[before...])
            requests = exchanges.count
            let fresh = try GPodderTestServer(kind: .gpodder)
            defer { fresh.stop() }
            peers.append(try Self.curl(exchanges.filter { $0.method != "POST" || !$0.target.hasPrefix("/api/2/auth") },
                                       to: fresh))

            // The next sync hears back this one's own upload (its GET asks from before the POST); after that, quiet.
            _ = try await synchronizer.sync(password: "secret")
            let quietBefore = server.exchanges.count
            quiet.append(try await Self.time { _ = try await synchronizer.sync(password: "secret") })
            let quietExchanges = Array(server.exchanges[quietBefore...])
            quietRequests = quietExchanges.count
            quietPeers.append(try Self.curl(quietExchanges, to: server))
        }
        return [
            BenchRow(measured: "sync \(shows) subscriptions and \(episodes.count) actions on loopback, \(requests) requests (median of \(runs))",
                     unit: "ms", trackcast: Self.median(ours), peerName: "curl, the same requests and bodies",
                     peer: Self.median(peers)),
            BenchRow(measured: "sync with nothing changed (after a refresh), \(quietRequests) requests (median of \(runs))",
                     unit: "ms", trackcast: Self.median(quiet), peerName: "curl, the same requests",
                     peer: Self.median(quietPeers)),
        ]
    }

    /// The requests, in one curl process and over one connection (`--next`
    /// between them), authenticated with Basic auth as the server allows: to
    /// a fresh server for the first sync (ours found one empty too), to the
    /// same one for the sync with nothing changed (GETs change nothing).
    private static func curl(_ exchanges: [GPodderTestServer.Exchange], to server: GPodderTestServer) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-curl-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments: [String] = []
        for (index, exchange) in exchanges.enumerated() {
            if index > 0 { arguments.append("--next") }
            arguments += ["--silent", "--fail", "--user", "alice:secret", "--output", "/dev/null", "-X", exchange.method]
            if !exchange.body.isEmpty {
                let file = folder.appendingPathComponent("\(index).json")
                try exchange.body.write(to: file)
                // Without "Expect:", curl waits a second for a 100 Continue before each large body.
                arguments += ["--header", "Content-Type: application/json", "--header", "Expect:",
                              "--data-binary", "@" + file.path]
            }
            arguments.append(server.url + exchange.target)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SyncBenchmarkError.curlFailed(process.terminationStatus) }
        return (ContinuousClock.now - start) / .milliseconds(1)
    }

    private static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start) / .milliseconds(1)
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

enum SyncBenchmarkError: Error, CustomStringConvertible {
    case incomplete(String)
    case curlFailed(Int32)

    var description: String {
        switch self {
        case .incomplete(let what): "the sync did not send everything: \(what)"
        case .curlFailed(let status): "curl exited with \(status)"
        }
    }
}
