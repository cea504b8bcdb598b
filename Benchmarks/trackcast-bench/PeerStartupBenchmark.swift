import Foundation

/// Window start-up and idle memory against the programs a user would run
/// instead, measured alike for every program by `Benchmarks/peers/first-paint.c`:
/// from spawn to the first paint of its first window as the X server sees it,
/// then its resident memory once it has settled. Peers print nothing when
/// they are ready, so the app's own "first frame" cannot be the mark here.
///
/// Each program runs with a home of its own, empty but for what its first,
/// untimed run leaves there (gPodder its database, Trackcast an empty
/// library), so this is the start of every launch after the first. Runs are
/// interleaved, so a burst of noise hits every program alike. A peer that is
/// not installed has no row (meson-helpers/deps installs both).
struct PeerStartupBenchmark {
    let trackcast: URL
    let firstPaint: URL
    var runs = 7
    var settle: Duration = .seconds(2)

    private struct Program {
        let name: String
        let executable: URL
    }

    private static let peers = [
        Program(name: "Celluloid 0.20, no file", executable: URL(fileURLWithPath: "/usr/bin/celluloid")),
        Program(name: "gPodder 3.11, no podcasts", executable: URL(fileURLWithPath: "/usr/bin/gpodder")),
    ].filter { FileManager.default.isExecutableFile(atPath: $0.executable.path) }

    private struct Sample {
        let paintMilliseconds: Double
        let residentMB: Double
    }

    func run() throws -> [BenchRow] {
        let ours = Program(name: "Trackcast", executable: trackcast)
        let programs = [ours] + Self.peers
        let homes = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-peers-\(getpid())")
        defer { try? FileManager.default.removeItem(at: homes) }
        for program in programs { _ = try measure(program, home: homes) }
        var samples: [String: [Sample]] = [:]
        for _ in 0..<runs {
            for program in programs { samples[program.name, default: []].append(try measure(program, home: homes)) }
        }

        let trackcastSamples = samples[ours.name]!
        let paint = median(trackcastSamples.map(\.paintMilliseconds))
        let resident = median(trackcastSamples.map(\.residentMB))
        return Self.peers.flatMap { peer in
            let peerSamples = samples[peer.name]!
            return [
                BenchRow(measured: "spawn to the first window's first paint, as X sees it (median of \(runs))", unit: "ms",
                         trackcast: paint, peerName: peer.name, peer: median(peerSamples.map(\.paintMilliseconds))),
                BenchRow(measured: "resident memory, window shown and settled, empty library (median of \(runs))",
                         unit: "MB", trackcast: resident, peerName: peer.name,
                         peer: median(peerSamples.map(\.residentMB))),
            ]
        }
    }

    private func measure(_ program: Program, home homes: URL) throws -> Sample {
        let home = homes.appendingPathComponent(program.executable.lastPathComponent)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = firstPaint
        process.arguments = ["\(Int(settle / .milliseconds(1)))", program.executable.path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "GSETTINGS_BACKEND": "memory",
            "TRACKCAST_LIBRARY_DIR": home.appendingPathComponent("library").path,
        ]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func value(_ key: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(key + " ") }.flatMap { Double($0.dropFirst(key.count + 1)) }
        }
        guard process.terminationStatus == 0, let paint = value("first-paint"), let resident = value("resident"),
              resident > 0 else {
            throw PeerStartupError.noWindow(program.name, text)
        }
        return Sample(paintMilliseconds: paint, residentMB: resident)
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

enum PeerStartupError: Error, CustomStringConvertible {
    case noWindow(String, String)
    var description: String {
        switch self {
        case .noWindow(let program, let output): "\(program) showed no window that stayed: \(output)"
        }
    }
}
