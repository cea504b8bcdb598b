import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Queue")
struct QueueTests {
    /// A library with one show of `count` episodes; returns them oldest first.
    static func library(_ directory: TemporaryDirectory, count: Int = 6) async throws -> (LibraryStore, [EpisodeID]) {
        let store = try await LibraryStore(directory: directory.url)
        let showID = try await store.apply(feed: SampleFeed.feed(1...count), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil).showID
        let episodes = try await store.episodes(of: showID, sort: .oldestFirst, limit: count).map(\.id)
        return (store, episodes)
    }

    /// The stored positions, which must always be 0, 1, 2, … in queue order.
    static func positions(_ directory: TemporaryDirectory) throws -> [Int] {
        try directory.openConnection().query("SELECT position FROM queue ORDER BY position") { $0.int(0) }
    }

    @Test("play last appends, play next puts at the front, both in the order given")
    func appendAndPlayNext() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await Self.library(directory)
        try await store.enqueue([e[0], e[1]])
        try await store.enqueue([e[2]])
        try await store.enqueueFirst([e[3], e[4]])
        #expect(try await store.queue().map(\.id) == [e[3], e[4], e[0], e[1], e[2]])
        #expect(try Self.positions(directory) == [0, 1, 2, 3, 4])
    }

    @Test("queueing an episode that is already queued moves it instead of repeating it")
    func requeueMoves() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await Self.library(directory)
        try await store.enqueue([e[0], e[1], e[2]])
        try await store.enqueue([e[0]])
        #expect(try await store.queue().map(\.id) == [e[1], e[2], e[0]])
        try await store.enqueueFirst([e[2], e[2]])
        #expect(try await store.queue().map(\.id) == [e[2], e[1], e[0]])
        #expect(try Self.positions(directory) == [0, 1, 2])
    }

    @Test("move puts an episode at an index, clamped to the queue")
    func move() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await Self.library(directory)
        try await store.enqueue([e[0], e[1], e[2], e[3]])
        try await store.moveInQueue(e[0], to: 2)
        #expect(try await store.queue().map(\.id) == [e[1], e[2], e[0], e[3]])
        try await store.moveInQueue(e[3], to: 0)
        #expect(try await store.queue().map(\.id) == [e[3], e[1], e[2], e[0]])
        try await store.moveInQueue(e[3], to: 99)
        #expect(try await store.queue().map(\.id) == [e[1], e[2], e[0], e[3]])
        try await store.moveInQueue(e[2], to: -5)
        #expect(try await store.queue().map(\.id) == [e[2], e[1], e[0], e[3]])
        // Not queued: nothing happens.
        try await store.moveInQueue(e[5], to: 0)
        #expect(try await store.queue().map(\.id) == [e[2], e[1], e[0], e[3]])
        #expect(try Self.positions(directory) == [0, 1, 2, 3])
    }

    @Test("remove and clear keep the rest in order with dense positions")
    func removeAndClear() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await Self.library(directory)
        try await store.enqueue(Array(e[0...4]))
        try await store.removeFromQueue([e[1], e[3], e[5]])
        #expect(try await store.queue().map(\.id) == [e[0], e[2], e[4]])
        #expect(try Self.positions(directory) == [0, 1, 2])
        try await store.clearQueue()
        #expect(try await store.queue().isEmpty)
    }

    @Test("queueing an episode that is not in the library fails and changes nothing")
    func unknownEpisode() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await Self.library(directory)
        try await store.enqueue([e[0]])
        let missing = EpisodeID(rawValue: 9999)
        await #expect(throws: LibraryStoreError.unknownEpisode(missing)) {
            try await store.enqueue([e[1], missing])
        }
        #expect(try await store.queue().map(\.id) == [e[0]])
    }

    @Test("unsubscribing a show takes its episodes out of the queue and closes the gaps")
    func unsubscribeClosesGaps() async throws {
        let directory = try TemporaryDirectory()
        let (store, e) = try await Self.library(directory, count: 2)
        let other = try await store.apply(feed: SampleFeed.feed(10...11), fetchedFrom: SampleFeed.otherURL,
                                          etag: nil, lastModified: nil).showID
        let o = try await store.episodes(of: other, sort: .oldestFirst, limit: 2).map(\.id)
        try await store.enqueue([o[0], e[0], o[1], e[1]])
        try await store.unsubscribe(other)
        #expect(try await store.queue().map(\.id) == [e[0], e[1]])
        #expect(try Self.positions(directory) == [0, 1])
    }
}
