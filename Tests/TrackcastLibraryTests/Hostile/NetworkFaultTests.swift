import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// One table of what a misbehaving server can do to a refresh. Each case
/// runs beside a well-behaved server: the faulty show ends within its
/// timeout with the recorded kind (or reads fine, when the fault is one a
/// client should shrug off), the healthy show refreshes, memory stays
/// bounded, and the library passes `PRAGMA integrity_check`.
@Suite("Network faults, one table")
struct NetworkFaultTests {
    static let fine = PodcastFeedWriter(title: "Fine", episodes: 3).data()
    static let rss = "application/rss+xml"
    static let twoGB: Int64 = 2 * 1_073_741_824
    static let item = Data("<item><title>Again</title><guid>same</guid></item>\n".utf8)
    static let endsWithin: Duration = .seconds(30)
    static let feedHead = Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Huge</title>\n".utf8)

    /// What the faulty show's refresh must end as: failed with a kind, or read.
    enum Expected: Sendable, CustomStringConvertible {
        case failed(RefreshFailure.Kind)
        case read

        var description: String {
            switch self {
            case .failed(let kind): "failed: \(kind.rawValue)"
            case .read: "read"
            }
        }
    }

    static let cases: [(String, TestHTTPServer.Behaviour, Expected)] = [
        ("stall before headers", .stall, .failed(.timeout)),
        ("stall mid-body", .stallAfter(bytes: 300, fine, contentType: rss), .failed(.timeout)),
        ("connection reset", .reset, .failed(.network)),
        ("truncated body", .truncated(fine, contentType: rss, fraction: 0.5), .failed(.network)),
        ("Content-Length larger than the body", .lyingLength(fine, contentType: rss, announcedLength: fine.count * 2),
         .failed(.network)),
        ("Content-Length smaller than the body", .lyingLength(fine, contentType: rss, announcedLength: fine.count / 2),
         .failed(.invalidFeed)),
        ("2 GB body with Content-Length", .generated(prefix: feedHead, pattern: item, totalBytes: twoGB, contentType: rss,
                                                     announced: true), .failed(.tooLarge)),
        ("2 GB body without Content-Length", .generated(prefix: feedHead, pattern: item, totalBytes: twoGB,
                                                        contentType: rss, announced: false), .failed(.tooLarge)),
        ("redirect loop", .redirect(302, to: "/feed.xml"), .failed(.tooManyRedirects)),
        ("one byte at a time, slowly", .throttled(fine, contentType: rss, bytesPerSecond: 20), .failed(.timeout)),
        ("HTML instead of XML", .serve(Data("<!DOCTYPE html><html><body>Log in</body></html>".utf8), contentType: "text/html"),
         .failed(.invalidFeed)),
        ("binary garbage", .serve(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }), contentType: rss),
         .failed(.invalidFeed)),
        ("wrong content type (image/png)", .serve(fine, contentType: "image/png"), .read),
        ("no content type", .untyped(fine), .read),
        ("500 error", .status(500), .failed(.httpStatus)),
    ]

    @Test("each fault ends in time, classified, leaving the other show and the library intact", arguments: cases.indices)
    func fault(_ index: Int) async throws {
        let (name, behaviour, expected) = Self.cases[index]
        let faulty = try TestHTTPServer()
        let healthy = try TestHTTPServer(address: "127.0.0.3")
        defer { faulty.stop(); healthy.stop() }
        faulty.route("/feed.xml", .document(Self.fine, contentType: Self.rss))
        healthy.route("/feed.xml", .document(Self.fine, contentType: Self.rss, etag: "\"h\""))
        let harness = try await RefreshHarness(options: RefreshOptions(timeouts: RefreshHarness.testTimeouts))
        let broken = try await harness.subscribe(faulty.url("/feed.xml"))
        let fine = try await harness.subscribe(healthy.url("/feed.xml"))
        faulty.route("/feed.xml", behaviour)

        // The refresh runs in a process of its own, so its peak memory is this
        // fault's alone. Real limits but short timeouts: 3 s in all, and the
        // default 50 MB size cap.
        let timeouts = RefreshHarness.testTimeouts
        let started = ContinuousClock.now
        let probe = try await ChildProcess.run(BuiltProducts.executable("refresh-fault-probe"), arguments: [
            harness.directory.url.path, String(timeouts.connect.components.seconds), String(timeouts.total.components.seconds),
        ], timeout: .seconds(120))
        let taken = ContinuousClock.now - started
        try #require(probe.status == 0 && !probe.timedOut, "\(name): the probe failed: \(probe.standardError.suffix(2000))")
        let report = try JSONDecoder().decode(ProbeReport.self, from: Data(probe.standardOutput.utf8))

        // A liveness bound, not a benchmark: ten times the 3 s the timeouts allow,
        // so only a fault the timeouts do not end (or end far too late) misses it.
        #expect(taken < Self.endsWithin, "\(name): the refresh took \(taken)")
        let outcome = try #require(report.outcomes[broken.feedURL.absoluteString], "\(name)")
        switch expected {
        case .failed(let kind):
            let failure = try #require(try await harness.store.show(broken.id)?.refresh.lastFailure, "\(name): \(outcome)")
            #expect(failure.kind == kind, "\(name): \(failure)")
            #expect(!failure.message.isEmpty)
        case .read:
            #expect(try await harness.store.show(broken.id)?.refresh.lastFailure == nil, "\(name): \(outcome)")
        }
        #expect(report.outcomes[fine.feedURL.absoluteString] == "notModified", "\(name)")
        #expect(try await harness.store.episodes(of: broken.id, limit: 10).count == 3, "\(name)")
        #expect(try harness.directory.openConnection().queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok", "\(name)")
        // Bounded by the 50 MB cap: the process alone peaks at about 37 MB and
        // with a capped body at about 89 MB (measured); a cap twice as large
        // would pass 128 MB.
        let peak = report.peakResidentBytes
        #expect(peak < 128 * 1_048_576, "\(name): the refresh's process peaked at \(peak / 1_048_576) MB")
    }

    /// What `refresh-fault-probe` prints.
    struct ProbeReport: Decodable {
        var peakResidentBytes: Int
        /// By feed URL: "updated", "notModified", "failed", "cancelled" or "unsubscribed".
        var outcomes: [String: String]
    }
}
