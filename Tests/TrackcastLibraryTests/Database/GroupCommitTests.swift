import Foundation
import Testing
@testable import TrackcastLibrary

/// A refresh hands the store several feeds to a transaction when they come
/// faster than it commits (`RefreshApplyQueue`). One show's failed write
/// must still be that show's alone: the others of its batch are applied,
/// and nothing of the failing one is.
@Suite("Group commit of refreshed feeds")
struct GroupCommitTests {
    private static func url(_ show: Int) -> URL { URL(string: "https://feeds.example.org/\(show).xml")! }

    private static func refreshed(_ feed: Feed, show: ShowID, url: URL) -> RefreshedFeed {
        RefreshedFeed(feed: feed, show: show, requestedFrom: url, permanentURL: nil, etag: "\"v2\"", lastModified: nil,
                      layout: nil, fetchedAt: Date())
    }

    /// Three subscribed shows with two episodes each.
    private func library() async throws -> (LibraryStore, [ShowID], TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        var ids: [ShowID] = []
        for show in 0..<3 {
            ids.append(try await store.apply(feed: SampleFeed.feed(1...2, title: "Show \(show)"), fetchedFrom: Self.url(show),
                                             etag: "\"v1\"", lastModified: nil).showID)
        }
        return (store, ids, directory)
    }

    @Test("a batch applies every feed, as one apply each would")
    func appliesEveryFeed() async throws {
        let (store, ids, directory) = try await library()
        _ = directory
        let results = await store.applyRefreshed(ids.enumerated().map { show, id in
            Self.refreshed(SampleFeed.feed(1...4, title: "Show \(show), renamed"), show: id, url: Self.url(show))
        })
        #expect(try results.map { try $0.get()?.result.inserted } == [2, 2, 2])
        for (show, id) in ids.enumerated() {
            #expect(try await store.episodes(of: id, limit: 100).count == 4)
            #expect(try await store.show(id)?.title == "Show \(show), renamed")
            #expect(try await store.show(id)?.refresh.etag == "\"v2\"")
        }
    }

    @Test("one show's failed write fails that show alone; the rest of its batch is applied")
    func failureStaysWithItsShow() async throws {
        let (store, ids, directory) = try await library()
        // A write the database refuses for the middle show only, made from
        // outside as another process would: the store learns of it only
        // when its batch runs.
        let other = try directory.openConnection()
        try other.executeScript("""
            CREATE TRIGGER refuse_show BEFORE INSERT ON episodes WHEN NEW.show_id = \(ids[1].rawValue)
            BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;
            """)
        let results = await store.applyRefreshed(ids.enumerated().map { show, id in
            Self.refreshed(SampleFeed.feed(1...4, title: "Show \(show), renamed"), show: id, url: Self.url(show))
        })

        #expect(try results[0].get()?.result.inserted == 2)
        #expect(throws: SQLiteError.self) { try results[1].get() }
        #expect(try results[2].get()?.result.inserted == 2)
        #expect(try await store.episodes(of: ids[0], limit: 100).count == 4)
        #expect(try await store.episodes(of: ids[2], limit: 100).count == 4)
        // Nothing of the failed show's feed is in: not its episodes, not its title, not its validators.
        #expect(try await store.episodes(of: ids[1], limit: 100).count == 2)
        #expect(try await store.show(ids[1])?.title == "Show 1")
        #expect(try await store.show(ids[1])?.refresh.etag == "\"v1\"")
        #expect(try other.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")
    }

    @Test("a show unsubscribed before its batch ran is skipped, not subscribed again")
    func unsubscribedShowIsSkipped() async throws {
        let (store, ids, directory) = try await library()
        _ = directory
        try await store.unsubscribe(ids[0])
        let results = await store.applyRefreshed(ids.enumerated().map { show, id in
            Self.refreshed(SampleFeed.feed(1...3), show: id, url: Self.url(show))
        })
        #expect(try results[0].get() == nil)
        #expect(try results[1].get()?.result.inserted == 1)
        #expect(try await store.show(feedURL: Self.url(0)) == nil)
        #expect(try await store.shows().count == 2)
    }
}
