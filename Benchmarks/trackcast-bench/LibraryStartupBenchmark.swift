import Foundation
import TrackcastLibrary

/// Start to first window frame with the big library (`BigLibrary`: 500
/// shows, 100k episodes) against an empty one, interleaved in the same run:
/// what a big library costs at start-up. The library opens off the main
/// thread and the window does not wait for it, so the goal is within 1.2×.
struct LibraryStartupBenchmark {
    let startup: StartupBenchmark

    func run() async throws -> BenchRow {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-library-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        let full = try await BigLibrary.make(at: base.appendingPathComponent("full"))
        let empty = base.appendingPathComponent("empty")
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
        return BenchRow(measured: "start to first frame, \(BigLibrary.label) library (median of \(startup.runs))",
                        unit: "ms", trackcast: startup.median(withLibrary),
                        peerName: "same, empty library", peer: startup.median(withoutLibrary))
    }
}
