import Foundation
import TrackcastLibrary

/// Start to first window frame with a long-used library (1,000 shows of 100
/// episodes) against an empty one: what a big library costs at start-up.
/// The library opens off the main thread, so the answer should be "nothing".
struct LibraryStartupBenchmark {
    let startup: StartupBenchmark
    var shows = 1_000
    var episodesPerShow = 100

    func run() async throws -> BenchRow {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-library-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        let full = base.appendingPathComponent("full")
        let empty = base.appendingPathComponent("empty")
        try await LibraryQueryBenchmark.fill(try await LibraryStore(directory: full), shows: shows,
                                             episodesPerShow: episodesPerShow)
        _ = try await LibraryStore(directory: empty)

        func environment(_ library: URL) -> [String: String] {
            ["TRACKCAST_QUIT_AFTER_FIRST_FRAME": "1", "TRACKCAST_LIBRARY_DIR": library.path]
        }
        _ = try startup.timeToFirstFrame(startup.trackcast, environment: environment(full))
        _ = try startup.timeToFirstFrame(startup.trackcast, environment: environment(empty))
        var withLibrary: [Double] = []
        var withoutLibrary: [Double] = []
        for _ in 0..<startup.runs {
            withLibrary.append(try startup.timeToFirstFrame(startup.trackcast, environment: environment(full)))
            withoutLibrary.append(try startup.timeToFirstFrame(startup.trackcast, environment: environment(empty)))
        }
        let episodes = shows * episodesPerShow
        return BenchRow(measured: "start to first frame, \(episodes / 1000)k-episode library (median of \(startup.runs))",
                        unit: "ms", trackcast: startup.median(withLibrary),
                        peerName: "same, empty library", peer: startup.median(withoutLibrary))
    }
}
