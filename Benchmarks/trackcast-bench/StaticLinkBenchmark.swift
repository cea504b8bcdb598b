import Foundation
import TestSupport

/// What linking the Swift runtime and Foundation into the binary costs
/// (`--static-swift-stdlib`, as meson installs it) against the same code
/// linked dynamically, both built by meson-helpers/bench in the same run:
/// the bytes a package must ship, and the time to start.
struct StaticLinkBenchmark {
    let staticBinary: URL
    let dynamicBinary: URL
    let startup: StartupBenchmark
    var versionRuns = 31
    var frameRuns = 9

    func run() throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-static-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let swiftLibraries = try Self.swiftLibraries(of: dynamicBinary)
        // A dynamic build that loads none would make the size rows meaningless.
        guard !swiftLibraries.isEmpty else { throw StaticLinkBenchmarkError.notDynamic(dynamicBinary.path) }
        let librariesSize = try swiftLibraries.map(Self.size).reduce(0, +)
        let strippedLibrariesSize = try swiftLibraries.map {
            try Self.size(Self.stripped($0, to: folder.appendingPathComponent($0.lastPathComponent)))
        }.reduce(0, +)
        let strippedStatic = try Self.stripped(staticBinary, to: folder.appendingPathComponent("static"))
        let strippedDynamic = try Self.stripped(dynamicBinary, to: folder.appendingPathComponent("dynamic"))
        var rows = [
            BenchRow(measured: "binary size, as meson installs it", unit: "MB",
                     trackcast: try Self.size(staticBinary) / 1e6,
                     peerName: "dynamic binary + its \(swiftLibraries.count) Swift libraries",
                     peer: (try Self.size(dynamicBinary) + librariesSize) / 1e6),
            BenchRow(measured: "binary size, stripped (as flatpak-builder ships it)", unit: "MB",
                     trackcast: try Self.size(strippedStatic) / 1e6,
                     peerName: "dynamic + its Swift libraries, all stripped",
                     peer: (try Self.size(strippedDynamic) + strippedLibrariesSize) / 1e6),
        ]

        // Interleaved, after one untimed run of each warms the page cache.
        _ = try CommandMeasurement.run(staticBinary, ["--version"])
        _ = try CommandMeasurement.run(dynamicBinary, ["--version"])
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<versionRuns {
            ours.append(try CommandMeasurement.run(staticBinary, ["--version"]).seconds * 1000)
            theirs.append(try CommandMeasurement.run(dynamicBinary, ["--version"]).seconds * 1000)
        }
        rows.append(BenchRow(measured: "static: `trackcast --version`, spawn to exit (median of \(versionRuns))", unit: "ms",
                             trackcast: startup.median(ours), peerName: "dynamic build", peer: startup.median(theirs)))

        let library = folder.appendingPathComponent("library")
        let environment = ["TRACKCAST_QUIT_AFTER_FIRST_FRAME": "1", "TRACKCAST_LIBRARY_DIR": library.path]
        _ = try startup.timeToFirstFrame(staticBinary, environment: environment)
        _ = try startup.timeToFirstFrame(dynamicBinary, environment: environment)
        ours = []
        theirs = []
        for _ in 0..<frameRuns {
            ours.append(try startup.timeToFirstFrame(staticBinary, environment: environment))
            theirs.append(try startup.timeToFirstFrame(dynamicBinary, environment: environment))
        }
        rows.append(BenchRow(measured: "static: start to first window frame (median of \(frameRuns))", unit: "ms",
                             trackcast: startup.median(ours), peerName: "dynamic build", peer: startup.median(theirs)))
        return rows
    }

    /// The Swift runtime and Foundation libraries the dynamic binary loads,
    /// as ldd resolves them: what would have to ship beside it.
    static func swiftLibraries(of binary: URL) throws -> [URL] {
        let ldd = try ChildProcess.runSynchronously(URL(fileURLWithPath: "/usr/bin/ldd"), arguments: [binary.path])
        let names = ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"]
        return String(decoding: ldd.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let arrow = fields.firstIndex(of: "=>"), arrow + 1 < fields.count,
                  names.contains(where: { fields[0].hasPrefix($0) }) else { return nil }
            return URL(fileURLWithPath: String(fields[arrow + 1]))
        }
    }

    static func size(_ file: URL) throws -> Double {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.resolvingSymlinksInPath().path)
        return Double((attributes[.size] as? NSNumber)?.int64Value ?? 0)
    }

    static func stripped(_ binary: URL, to output: URL) throws -> URL {
        let result = try ChildProcess.runSynchronously(URL(fileURLWithPath: "/usr/bin/strip"),
                                                       arguments: ["-o", output.path, binary.path])
        guard result.termination == .exited(0) else { throw CommandMeasurementError.failed(command: "strip", status: -1) }
        return output
    }
}

enum StaticLinkBenchmarkError: Error, CustomStringConvertible {
    case notDynamic(String)

    var description: String {
        switch self {
        case .notDynamic(let path): "\(path) loads no Swift library, so it is not the dynamic build"
        }
    }
}
