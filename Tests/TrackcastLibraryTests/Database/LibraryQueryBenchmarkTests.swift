import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Library query benchmark")
struct LibraryQueryBenchmarkTests {
    @Test("fills a library of the asked shape and times every UI query")
    func smallRun() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        try await LibraryQueryBenchmark.fill(store, shows: 12, episodesPerShow: 30)

        let shows = try await store.shows()
        #expect(shows.count == 12)
        let connection = try directory.openConnection()
        #expect(try connection.count("episodes") == 360)
        #expect(try connection.count("enclosures") == 360)
        #expect(try await !store.newEpisodes(limit: 1000).isEmpty)
        #expect(try await !store.inProgressEpisodes(limit: 1000).isEmpty)
        #expect(try await !store.downloadedEpisodes(limit: 1000).isEmpty)
        #expect(try await (1...50).contains(store.queue().count))
        #expect(try connection.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")

        let timings = try await LibraryQueryBenchmark.measure(store, runs: 5)
        #expect(timings.count == 9)
        #expect(Set(timings.map(\.name)).count == timings.count)
        #expect(timings.allSatisfy { $0.runs == 5 && $0.p50 <= $0.p99 })
    }

    @Test("percentiles are nearest-rank")
    func percentiles() {
        let samples = (1...100).map { Duration.milliseconds($0) }.shuffled()
        let timing = QueryTiming(name: "q", samples: samples)
        #expect(timing.p50 == .milliseconds(50))
        #expect(timing.p99 == .milliseconds(99))
        #expect(QueryTiming(name: "one", samples: [.seconds(1)]).p99 == .seconds(1))
    }
}
