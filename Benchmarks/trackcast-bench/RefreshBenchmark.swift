import Foundation
import TestSupport
import TrackcastLibrary

/// Refreshing 500 shows served on loopback by 50 "hosts" (127.0.0.1-50, ten
/// shows each): wall time when every feed answers 200 with what it sent
/// last time (fetched and recognised by its digest), when every feed answers
/// 200 with one episode more (fetched, parsed, compared, one episode written
/// per show) and when every feed answers 304. The floor is
/// curl fetching the same 500 URLs with the same validators and the same
/// number of transfers at once (`--parallel-max`), discarding the bodies:
/// the cost of the HTTP alone.
struct RefreshBenchmark {
    var hosts = 50
    var showsPerHost = 10
    var episodesPerFeed = 100
    var runs = 3

    func run() async throws -> [BenchRow] {
        let servers = try (1...hosts).map { try TestHTTPServer(address: "127.0.0.\($0)") }
        defer { servers.forEach { $0.stop() } }
        var urls: [URL] = []
        for (host, server) in servers.enumerated() {
            for show in 0..<showsPerHost {
                let feed = PodcastFeedWriter(title: "Host \(host) Show \(show)", episodes: episodesPerFeed)
                server.route("/\(show).xml", .document(feed.data(), contentType: "application/rss+xml"))
                urls.append(URL(string: server.url("/\(show).xml"))!)
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-refresh-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await LibraryStore(directory: folder)
        _ = try await store.addShows(urls.map { FeedSubscription(feedURL: $0) })
        let options = RefreshOptions()
        let refresher = FeedRefresher(store: store, client: HTTPClient(userAgent: "Trackcast-bench"), options: options)
        // The first refresh writes every episode; the ones timed below find them all there.
        try await Self.refreshAll(refresher, expecting: urls.count)

        var ours200: [Double] = [], curl200: [Double] = []
        for _ in 0..<runs {
            ours200.append(try await Self.time { try await Self.refreshAll(refresher, expecting: urls.count) })
            curl200.append(try Self.curl(urls, etag: nil, parallel: options.maxConcurrentHosts))
        }

        var oursChanged: [Double] = [], curlChanged: [Double] = []
        for run in 1...runs {
            for (host, server) in servers.enumerated() {
                for show in 0..<showsPerHost {
                    let feed = PodcastFeedWriter(title: "Host \(host) Show \(show)", episodes: episodesPerFeed + run)
                    server.route("/\(show).xml", .document(feed.data(), contentType: "application/rss+xml"))
                }
            }
            oursChanged.append(try await Self.time { try await Self.refreshAll(refresher, expecting: urls.count) })
            curlChanged.append(try Self.curl(urls, etag: nil, parallel: options.maxConcurrentHosts))
        }

        // Now with validators: one refresh stores each feed's ETag, the timed ones get 304s.
        for (host, server) in servers.enumerated() {
            for show in 0..<showsPerHost {
                let feed = PodcastFeedWriter(title: "Host \(host) Show \(show)", episodes: episodesPerFeed)
                server.route("/\(show).xml", .document(feed.data(), contentType: "application/rss+xml", etag: "\"v1\""))
            }
        }
        try await Self.refreshAll(refresher, expecting: urls.count)
        var ours304: [Double] = [], curl304: [Double] = []
        for _ in 0..<runs {
            ours304.append(try await Self.time { try await Self.refreshAll(refresher, expecting: urls.count) })
            curl304.append(try Self.curl(urls, etag: "\"v1\"", parallel: options.maxConcurrentHosts))
        }
        let shows = urls.count
        return [
            BenchRow(measured: "refresh \(shows) shows on loopback, all 200 unchanged (median of \(runs))", unit: "ms",
                     trackcast: Self.median(ours200), peerName: "curl --parallel, bodies discarded",
                     peer: Self.median(curl200)),
            BenchRow(measured: "refresh \(shows) shows on loopback, all 200 with one new episode each (median of \(runs))",
                     unit: "ms", trackcast: Self.median(oursChanged), peerName: "curl --parallel, bodies discarded",
                     peer: Self.median(curlChanged)),
            BenchRow(measured: "refresh \(shows) shows on loopback, all 304 (median of \(runs))", unit: "ms",
                     trackcast: Self.median(ours304), peerName: "curl --parallel, same If-None-Match",
                     peer: Self.median(curl304)),
        ]
    }

    private static func refreshAll(_ refresher: FeedRefresher, expecting count: Int) async throws {
        let reports = try await refresher.refreshAll()
        let failed = reports.filter(\.isFailure)
        guard reports.count == count, failed.isEmpty else {
            throw RefreshBenchmarkError.failures(failed.prefix(3).map { "\($0.feedURL): \($0.outcome)" })
        }
    }

    private static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start) / .milliseconds(1)
    }

    private static func curl(_ urls: [URL], etag: String?, parallel: Int) throws -> Double {
        var arguments = ["--silent", "--parallel", "--parallel-max", String(parallel), "--compressed"]
        if let etag { arguments += ["--header", "If-None-Match: \(etag)"] }
        for url in urls { arguments += [url.absoluteString, "--output", "/dev/null"] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        // --parallel draws its progress meter even when silent.
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RefreshBenchmarkError.curlFailed(process.terminationStatus) }
        return (ContinuousClock.now - start) / .milliseconds(1)
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

enum RefreshBenchmarkError: Error, CustomStringConvertible {
    case failures([String])
    case curlFailed(Int32)

    var description: String {
        switch self {
        case .failures(let examples): "refresh failures, e.g. \(examples.joined(separator: "; "))"
        case .curlFailed(let status): "curl exited with \(status)"
        }
    }
}
