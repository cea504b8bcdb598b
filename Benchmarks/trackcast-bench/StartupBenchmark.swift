import Foundation

/// Start to first window frame: from spawning the process to the moment it
/// reports that its first frame was painted. The page cache is warm (the
/// first, untimed run of each warms it), so this is the start a user sees on
/// every launch after the first.
struct StartupBenchmark {
    let trackcast: URL
    let floorWindow: URL
    var runs = 9

    func run() throws -> BenchRow {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: library) }
        let trackcastEnvironment = ["TRACKCAST_QUIT_AFTER_FIRST_FRAME": "1", "TRACKCAST_LIBRARY_DIR": library.path]

        _ = try timeToFirstFrame(trackcast, environment: trackcastEnvironment)
        _ = try timeToFirstFrame(floorWindow, environment: [:])
        var ours: [Double] = []
        var floor: [Double] = []
        // Interleaved, so a burst of noise hits both sides alike.
        for _ in 0..<runs {
            ours.append(try timeToFirstFrame(trackcast, environment: trackcastEnvironment))
            floor.append(try timeToFirstFrame(floorWindow, environment: [:]))
        }
        return BenchRow(measured: "start to first window frame (median of \(runs))", unit: "ms",
                        trackcast: median(ours), peerName: "C GTK 4 window (floor)", peer: median(floor))
    }

    func timeToFirstFrame(_ executable: URL, environment: [String: String]) throws -> Double {
        let process = Process()
        process.executableURL = executable
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("first-frame") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw BenchError.noFrame(executable.lastPathComponent) }
            seen.append(chunk)
        }
        let elapsed = ContinuousClock.now - start
        process.waitUntilExit()
        return elapsed / .milliseconds(1)
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

enum BenchError: Error, CustomStringConvertible {
    case noFrame(String)
    var description: String {
        switch self {
        case .noFrame(let program): "\(program) exited before painting a frame"
        }
    }
}
