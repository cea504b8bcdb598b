import Foundation
import Synchronization
import TestSupport
@testable import TrackcastLibrary

/// A library in a temporary directory and a refresher with short timeouts,
/// for refreshing against loopback servers.
struct RefreshHarness {
    let directory: TemporaryDirectory
    let store: LibraryStore
    let refresher: FeedRefresher
    let events = RefreshEventLog()

    static let testTimeouts = HTTPTimeouts(connect: .seconds(1), total: .seconds(3))

    init(options: RefreshOptions = RefreshOptions(timeouts: RefreshHarness.testTimeouts)) async throws {
        directory = try TemporaryDirectory()
        store = try await LibraryStore(directory: directory.url)
        refresher = FeedRefresher(store: store, client: HTTPClient(userAgent: "Trackcast-tests"), options: options)
    }

    /// Subscribes `url` and returns the show.
    @discardableResult
    func subscribe(_ url: String) async throws -> Show {
        try await refresher.subscribe(to: URL(string: url)!).show
    }

    func refreshAll() async throws -> [ShowRefreshReport] {
        let events = self.events
        return try await refresher.refreshAll { events.append($0) }
    }

    func show(_ url: String) async throws -> Show? {
        try await store.show(feedURL: URL(string: url)!)
    }
}

/// Progress events in the order the refresher reported them.
final class RefreshEventLog: Sendable {
    private let events = Mutex<[RefreshProgress]>([])

    func append(_ event: RefreshProgress) { events.withLock { $0.append(event) } }

    var all: [RefreshProgress] { events.withLock { $0 } }

    /// The feed URLs of finished shows, in the order they finished.
    var finishedURLs: [String] {
        all.compactMap(\.finishedURL)
    }
}

extension RefreshProgress {
    /// The feed URL of a finished show's report.
    var finishedURL: String? {
        if case .finished(let report) = self { return report.feedURL.absoluteString }
        return nil
    }
}
