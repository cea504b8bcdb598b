import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Resume positions")
struct ResumePositionTests {
    static let file = URL(string: "file:///home/me/Videos/talk.webm")!

    @Test("a batch saves positions for episodes and for directly opened files together")
    func batchSave() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 3)
        let at = Date(timeIntervalSince1970: 1_700_000_000.5)
        try await store.savePositions([
            ResumePositionUpdate(key: .episode(e[0]), position: 10, duration: 1800, updated: at),
            ResumePositionUpdate(key: .episode(e[1]), position: 20, duration: nil, updated: at),
            ResumePositionUpdate(key: .uri(Self.file), position: 30.25, duration: 600, updated: at),
        ])
        #expect(try await store.position(for: .episode(e[0])) == ResumePosition(position: 10, duration: 1800, updated: at))
        #expect(try await store.position(for: .episode(e[1]))?.position == 20)
        #expect(try await store.position(for: .episode(e[2])) == nil)
        #expect(try await store.position(for: .uri(Self.file)) == ResumePosition(position: 30.25, duration: 600, updated: at))
    }

    @Test("a newer position replaces the stored one; an older one is ignored")
    func upsertNewer() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 1)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        for key in [ResumeKey.episode(e[0]), .uri(Self.file)] {
            try await store.savePositions([ResumePositionUpdate(key: key, position: 100, duration: nil, updated: t0)])
            try await store.savePositions([ResumePositionUpdate(key: key, position: 150, duration: 900,
                                                                updated: t0.addingTimeInterval(0.5))])
            #expect(try await store.position(for: key)?.position == 150)
            // A late flush of an older batch must not move playback back.
            try await store.savePositions([ResumePositionUpdate(key: key, position: 50, duration: nil,
                                                                updated: t0.addingTimeInterval(-10))])
            #expect(try await store.position(for: key) == ResumePosition(position: 150, duration: 900,
                                                                        updated: t0.addingTimeInterval(0.5)))
        }
        #expect(try directory.openConnection().count("resume_positions") == 2)
    }

    @Test("a position for an episode no longer in the library is dropped, the rest of the batch saved")
    func unknownEpisodeIsDropped() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 1)
        try await store.savePositions([
            ResumePositionUpdate(key: .episode(EpisodeID(rawValue: 4242)), position: 1, duration: nil),
            ResumePositionUpdate(key: .episode(e[0]), position: 2, duration: nil),
        ])
        #expect(try await store.position(for: .episode(e[0]))?.position == 2)
        #expect(try directory.openConnection().count("resume_positions") == 1)
    }

    @Test("marking played clears the position and the new flag; unplayed keeps it cleared")
    func playedClearsPosition() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let showID = try await store.apply(feed: SampleFeed.feed(1...1), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil).showID
        _ = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        let newest = try #require(try await store.episodes(of: showID, limit: 1).first)
        #expect(newest.isNew)
        try await store.savePositions([ResumePositionUpdate(key: .episode(newest.id), position: 60, duration: nil)])
        #expect(try await store.inProgressEpisodes(limit: 10).map(\.id) == [newest.id])

        try await store.setPlayed([newest.id], played: true)
        #expect(try await store.position(for: .episode(newest.id)) == nil)
        let played = try #require(try await store.episodeSummary(newest.id))
        #expect(played.isPlayed && !played.isNew)
        #expect(try await store.inProgressEpisodes(limit: 10).isEmpty)
        #expect(try await store.show(showID)?.unplayedCount == 1)

        try await store.setPlayed([newest.id], played: false)
        #expect(try await store.episodeSummary(newest.id)?.isPlayed == false)
        #expect(try await store.position(for: .episode(newest.id)) == nil)
    }

    @Test("continue listening lists unplayed episodes with a position, most recently played first")
    func inProgressOrder() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await QueueTests.library(directory, count: 4)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.savePositions([
            ResumePositionUpdate(key: .episode(e[0]), position: 1, duration: nil, updated: t0),
            ResumePositionUpdate(key: .episode(e[2]), position: 1, duration: nil, updated: t0.addingTimeInterval(20)),
            ResumePositionUpdate(key: .episode(e[1]), position: 1, duration: nil, updated: t0.addingTimeInterval(10)),
            ResumePositionUpdate(key: .uri(Self.file), position: 1, duration: nil, updated: t0.addingTimeInterval(30)),
        ])
        #expect(try await store.inProgressEpisodes(limit: 10).map(\.id) == [e[2], e[1], e[0]])
        #expect(try await store.inProgressEpisodes(limit: 1, offset: 1).map(\.id) == [e[1]])
        try await store.removePosition(for: .episode(e[2]))
        #expect(try await store.inProgressEpisodes(limit: 10).map(\.id) == [e[1], e[0]])
    }
}
