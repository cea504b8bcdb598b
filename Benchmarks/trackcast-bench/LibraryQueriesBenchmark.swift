import Foundation
import TrackcastLibrary

/// The UI's library queries on a 100,000-episode library (1,000 shows of
/// 100), p50 and p99 as the UI sees them through the store's actor, against
/// the same SQL as a bare prepared-statement loop (`LibraryQueryFloor`).
struct LibraryQueriesBenchmark {
    var shows = 1_000
    var episodesPerShow = 100
    var runs = 200

    func run() async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-queries-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await LibraryStore(directory: folder)
        try await LibraryQueryBenchmark.fill(store, shows: shows, episodesPerShow: episodesPerShow)
        let ours = try await LibraryQueryBenchmark.measure(store, runs: runs)
        let floor = Dictionary(uniqueKeysWithValues: try await LibraryQueryFloor.measure(store, runs: runs).map { ($0.name, $0) })
        let size = "\(shows * episodesPerShow / 1000)k episodes"
        var rows: [BenchRow] = []
        for timing in ours {
            guard let bare = floor[timing.name] else { continue }
            rows.append(BenchRow(measured: "\(timing.name), \(size), p50", unit: "µs", trackcast: timing.p50 / .microseconds(1),
                                 peerName: "same SQL, bare statement loop", peer: bare.p50 / .microseconds(1)))
            rows.append(BenchRow(measured: "\(timing.name), \(size), p99", unit: "µs", trackcast: timing.p99 / .microseconds(1),
                                 peerName: "same SQL, bare statement loop", peer: bare.p99 / .microseconds(1)))
        }
        return rows
    }
}
