import Foundation
import TestSupport
import TrackcastLibrary

/// Feed parsing on feeds shaped like real ones (`RealisticFeedCorpus`: long
/// HTML show notes three times per episode, many scripts, legacy charsets,
/// 3.5–13 MB), against podcastparser on the same files in the same run: in
/// process, and through `trackcast feed parse FILE --json` less the process's
/// start-up (the same command on a one-episode feed, measured in the same
/// run); and the command's peak memory on the largest feed.
struct RealisticFeedParsingBenchmark {
    let peer: PodcastparserPeer
    let trackcast: URL
    /// Benchmarks/peers/peak-memory.py.
    let peakMemoryScript: URL
    var runs = 3

    func run() throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-realistic-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [(url: URL, data: Data)] = []
        for member in RealisticFeedCorpus.bench {
            let file = folder.appendingPathComponent("\(member.name).xml")
            let data = member.writer.data()
            try data.write(to: file)
            files.append((file, data))
        }
        let tiny = folder.appendingPathComponent("one-episode.xml")
        try RealisticFeedWriter(seed: 1, episodes: 1).data().write(to: tiny)

        var counts: [String: Int] = [:]
        var inProcessSeconds = 0.0
        var commandSeconds = 0.0
        let startUp = try CommandMeasurement.best(of: runs * 2, trackcast, ["feed", "parse", tiny.path, "--json"])
        var largest = files[0]
        for (url, data) in files {
            let feedURL = URL(string: "https://feeds.example.org/\(url.lastPathComponent)")!
            counts[url.path] = try FeedParser().parse(data, url: feedURL).episodes.count
            let elapsed = try ContinuousClock().measure {
                for _ in 0..<runs { _ = try FeedParser().parse(data, url: feedURL) }
            }
            inProcessSeconds += elapsed / .seconds(1) / Double(runs)
            let command = try CommandMeasurement.best(of: runs, trackcast, ["feed", "parse", url.path, "--json"])
            commandSeconds += max(0, command.seconds - startUp.seconds)
            if data.count > largest.data.count { largest = (url, data) }
        }

        let startUpPeak = try peakResidentBytes(["feed", "parse", tiny.path, "--json"])
        let largestPeak = try peakResidentBytes(["feed", "parse", largest.url.path, "--json"])

        let peerResults = try peer.timings(files.map(\.url), runs: runs)
        for result in peerResults where counts[result.file] != result.episodes {
            throw ParsingBenchmarkError.episodeCountsDiffer(file: result.file, trackcast: counts[result.file] ?? -1,
                                                            podcastparser: result.episodes)
        }
        let peerSeconds = peerResults.map(\.seconds).reduce(0, +)
        let megabytes = Double(files.map(\.data.count).reduce(0, +)) / 1_048_576
        let episodes = Double(counts.values.reduce(0, +))
        let label = "realistic feeds (\(files.count), \(String(format: "%.1f", megabytes)) MB, \(Int(episodes)) episodes)"
        let podcastparser = "podcastparser (Python)"
        return [
            BenchRow(measured: "feed parsing throughput, \(label), in process (higher is better)", unit: "MB/s",
                     trackcast: megabytes / inProcessSeconds, peerName: podcastparser, peer: megabytes / peerSeconds),
            BenchRow(measured: "feed parsing, \(label), in process, episodes per second (higher is better)", unit: "k/s",
                     trackcast: episodes / inProcessSeconds / 1000, peerName: podcastparser, peer: episodes / peerSeconds / 1000),
            BenchRow(measured: "`feed parse --json` throughput less start-up, \(label) (higher is better)", unit: "MB/s",
                     trackcast: megabytes / commandSeconds, peerName: podcastparser, peer: megabytes / peerSeconds),
            BenchRow(measured: "`feed parse --json` less start-up against the in-process parse, time (goal ≤ 1.3×)", unit: "s",
                     trackcast: commandSeconds, peerName: "in-process parse", peer: inProcessSeconds),
            BenchRow(measured: "`feed parse --json` peak memory above a one-episode feed's, \(String(format: "%.1f", Double(largest.data.count) / 1_048_576)) MB feed (goal ≤ 1×)",
                     unit: "MB", trackcast: Double(largestPeak - startUpPeak) / 1_048_576,
                     peerName: "3× the feed's size", peer: 3 * Double(largest.data.count) / 1_048_576),
        ]
    }

    /// The command's peak resident memory, measured by `peakMemoryScript`.
    private func peakResidentBytes(_ arguments: [String]) throws -> Int {
        let process = Process()
        process.executableURL = peer.python
        process.arguments = [peakMemoryScript.path, trackcast.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ParsingBenchmarkError.peakMemoryFailed(process.terminationStatus)
        }
        return kilobytes * 1024
    }
}
