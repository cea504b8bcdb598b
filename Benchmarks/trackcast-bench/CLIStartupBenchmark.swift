import Foundation

/// The headless command's start-up against C floors, all interleaved,
/// medians of `runs`: `trackcast --version` and `trackcast feed parse` of a
/// one-episode feed against a C program linked with GLib, libxml2 and SQLite
/// (`Benchmarks/floor/cli-hello.c`), and that program with GTK 4, libadwaita
/// and GStreamer linked in as well, which tells what loading libraries a
/// headless command never calls costs.
struct CLIStartupBenchmark {
    let trackcast: URL
    let floor: URL
    let floorWithGUILibraries: URL
    var runs = 31

    func run() throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-cli-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("one-episode.xml")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Show</title><item><title>One</title><guid>1</guid>
            <enclosure url="https://example.org/1.mp3" type="audio/mpeg" length="1"/></item></channel></rss>
            """.utf8).write(to: feed)

        let commands: [(URL, [String])] = [
            (floor, []), (floorWithGUILibraries, []), (trackcast, ["--version"]), (trackcast, ["feed", "parse", feed.path, "--json"]),
        ]
        for (executable, arguments) in commands { _ = try CommandMeasurement.run(executable, arguments) }
        var milliseconds = [[Double]](repeating: [], count: commands.count)
        for _ in 0..<runs {
            for (index, (executable, arguments)) in commands.enumerated() {
                milliseconds[index].append(try CommandMeasurement.run(executable, arguments).seconds * 1000)
            }
        }
        let medians = milliseconds.map { $0.sorted()[$0.count / 2] }
        let floorName = "C, GLib + libxml2 + SQLite"
        return [
            BenchRow(measured: "`trackcast --version`, spawn to exit (median of \(runs))", unit: "ms",
                     trackcast: medians[2], peerName: floorName, peer: medians[0]),
            BenchRow(measured: "`trackcast feed parse` of a one-episode feed, spawn to exit (median of \(runs))", unit: "ms",
                     trackcast: medians[3], peerName: floorName, peer: medians[0]),
            BenchRow(measured: "the C floor with GTK 4, libadwaita and GStreamer linked in, never called (median of \(runs))", unit: "ms",
                     trackcast: medians[1], peerName: floorName, peer: medians[0]),
        ]
    }
}
