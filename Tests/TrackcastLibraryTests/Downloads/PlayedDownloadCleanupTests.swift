import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Deleting downloads of played episodes")
struct PlayedDownloadCleanupTests {
    @Test("only downloads of episodes played before the cutoff go; unplayed and recently played stay")
    func cleanup() async throws {
        let harness = try await DownloadHarness(episodes: [
            (title: "Long ago", path: "/1.mp3", type: "audio/mpeg"),
            (title: "Just now", path: "/2.mp3", type: "audio/mpeg"),
            (title: "Not yet", path: "/3.mp3", type: "audio/mpeg"),
        ])
        for path in ["/1.mp3", "/2.mp3", "/3.mp3"] {
            harness.server.route(path, .serve(DownloadHarness.media(1000), contentType: "audio/mpeg"))
        }
        let ids = try await harness.episodeIDs()
        var files: [URL] = []
        for id in ids { files.append(try await harness.downloader.download(id)) }
        try await harness.store.setPlayed([ids[0], ids[1]], played: true)
        let tenDaysAgo = Date().addingTimeInterval(-10 * 86_400)
        try harness.directory.openConnection().execute("UPDATE episodes SET played_at = ? WHERE id = ?",
                                                       [tenDaysAgo.databaseSeconds, ids[0]])

        let deleted = try await harness.downloader.deletePlayedDownloads(playedBefore: Date().addingTimeInterval(-7 * 86_400))

        #expect(deleted == [ids[0]])
        #expect(files.map { FileManager.default.fileExists(atPath: $0.path) } == [false, true, true])
        #expect(try await harness.store.download(for: ids[0]) == nil)
        #expect(try await harness.store.downloadedEpisodes(limit: 10).map(\.id).sorted { $0.rawValue < $1.rawValue }
                == [ids[1], ids[2]].sorted { $0.rawValue < $1.rawValue })
    }

    @Test("marking played stamps the time; marking unplayed clears it")
    func playedAtTrigger() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let result = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        let episodes = try await store.episodes(of: result.showID, limit: 10).map(\.id)
        let connection = try directory.openConnection()
        func playedAt(_ id: EpisodeID) throws -> Int64? {
            try connection.queryFirst("SELECT played_at FROM episodes WHERE id = ?", [id]) { $0.optionalInt64(0) } ?? nil
        }

        let before = Date().databaseSeconds
        try await store.setPlayed([episodes[0]], played: true)
        let stamped = try #require(try playedAt(episodes[0]))
        #expect(stamped >= before && stamped <= Date().databaseSeconds)
        #expect(try playedAt(episodes[1]) == nil)

        try await store.setPlayed([episodes[0]], played: false)
        #expect(try playedAt(episodes[0]) == nil)
    }
}
