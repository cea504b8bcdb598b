import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Episode lists")
struct EpisodeListTests {
    @Test("a show's episodes page by date in either direction")
    func paging() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 7)
        let showID = try #require(try await store.episodeSummary(e[0])?.showID)
        #expect(try await store.episodes(of: showID, limit: 3).map(\.id) == [e[6], e[5], e[4]])
        #expect(try await store.episodes(of: showID, limit: 3, offset: 3).map(\.id) == [e[3], e[2], e[1]])
        #expect(try await store.episodes(of: showID, limit: 3, offset: 6).map(\.id) == [e[0]])
        #expect(try await store.episodes(of: showID, sort: .oldestFirst, limit: 2, offset: 1).map(\.id) == [e[1], e[2]])
    }

    @Test("filters: unplayed, in progress, downloaded")
    func filters() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 5)
        let showID = try #require(try await store.episodeSummary(e[0])?.showID)
        try await store.setPlayed([e[0], e[1]], played: true)
        try await store.savePositions([ResumePositionUpdate(key: .episode(e[3]), position: 5, duration: nil)])
        try await store.setDownload(DownloadRecord(state: .complete, file: URL(fileURLWithPath: "/tmp/a.mp3")), for: e[1])
        try await store.setDownload(DownloadRecord(state: .downloading, bytes: 10, total: 100), for: e[2])
        try await store.setDownload(DownloadRecord(state: .complete), for: e[4])

        func ids(_ filter: EpisodeFilter) async throws -> [EpisodeID] {
            try await store.episodes(of: showID, filter: filter, sort: .oldestFirst, limit: 10).map(\.id)
        }
        #expect(try await ids(.all) == e)
        #expect(try await ids(.unplayed) == [e[2], e[3], e[4]])
        #expect(try await ids(.inProgress) == [e[3]])
        #expect(try await ids(.downloaded) == [e[1], e[4]])
        let summaries = try await store.episodes(of: showID, sort: .oldestFirst, limit: 10)
        #expect(summaries.map(\.downloadState) == [nil, .complete, .downloading, nil, .complete])
    }

    @Test("new episodes across shows, newest first; clearing new takes them out")
    func newAcrossShows() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        _ = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        _ = try await store.apply(feed: SampleFeed.feed(10...11), fetchedFrom: SampleFeed.otherURL,
                                  etag: nil, lastModified: nil)
        #expect(try await store.newEpisodes(limit: 10).isEmpty)
        _ = try await store.apply(feed: SampleFeed.feed(1...4), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        _ = try await store.apply(feed: SampleFeed.feed(10...12), fetchedFrom: SampleFeed.otherURL,
                                  etag: nil, lastModified: nil)
        let new = try await store.newEpisodes(limit: 10)
        #expect(new.map(\.title) == ["Episode 12", "Episode 4", "Episode 3"])
        #expect(new.map(\.showTitle) == ["A Show", "A Show", "A Show"])
        #expect(Set(new.map(\.showID)).count == 2)
        #expect(try await store.shows().map(\.newCount) == [2, 1])
        try await store.clearNew([new[0].id])
        #expect(try await store.newEpisodes(limit: 10).map(\.title) == ["Episode 4", "Episode 3"])
        #expect(try await store.newEpisodes(limit: 1, offset: 1).map(\.title) == ["Episode 3"])
    }

    @Test("downloaded episodes across shows, most recently finished first, with their records")
    func downloaded() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 4)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.setDownload(DownloadRecord(state: .complete, updated: t0), for: e[2])
        try await store.setDownload(DownloadRecord(state: .complete, updated: t0.addingTimeInterval(60)), for: e[0])
        try await store.setDownload(DownloadRecord(state: .failed, error: "HTTP 404", updated: t0), for: e[1])
        #expect(try await store.downloadedEpisodes(limit: 10).map(\.id) == [e[0], e[2]])

        let record = DownloadRecord(state: .complete, file: URL(fileURLWithPath: "/home/me/Podcasts/ep.mp3"),
                                    bytes: 1234, total: 1234, updated: t0)
        try await store.setDownload(record, for: e[1])
        #expect(try await store.download(for: e[1]) == record)
        try await store.removeDownload(for: e[1])
        #expect(try await store.download(for: e[1]) == nil)
        await #expect(throws: LibraryStoreError.unknownEpisode(EpisodeID(rawValue: 777))) {
            try await store.setDownload(record, for: EpisodeID(rawValue: 777))
        }
    }
}
