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
    /// Five: a new process's first touch of memory is, on the virtual machine
    /// the figures come from, several times dearer in about half the runs that
    /// follow podcastparser's exit; with three, a feed's command often had no
    /// run without it (the in-process parse reuses its heap and never pays it).
    var runs = 5

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

        // Round by round, feed by feed, podcastparser, the in-process parse
        // and the command one after the other, each side's best of the
        // rounds kept: this machine's speed drifts over tens of seconds, and
        // each side timed in a block of its own read ratios 30 % apart
        // from one run to the next.
        let startUp = try CommandMeasurement.best(of: runs * 2, trackcast, ["feed", "parse", tiny.path, "--json"])
        var counts: [String: Int] = [:]
        var peerBest: [String: Double] = [:], inProcessBest: [String: Double] = [:], commandBest: [String: Double] = [:]
        for _ in 0..<runs {
            for (url, data) in files {
                let feedURL = URL(string: "https://feeds.example.org/\(url.lastPathComponent)")!
                // Each side parses the feed once untimed first (the script does too).
                let peerResult = try peer.timings([url], runs: 1)[0]
                let found = try FeedParser().parse(data, url: feedURL).episodes.count
                guard found == peerResult.episodes else {
                    throw ParsingBenchmarkError.episodeCountsDiffer(file: url.path, trackcast: found,
                                                                    podcastparser: peerResult.episodes)
                }
                counts[url.path] = found
                peerBest[url.path] = min(peerBest[url.path] ?? .infinity, peerResult.seconds)
                let elapsed = try ContinuousClock().measure { _ = try FeedParser().parse(data, url: feedURL) }
                inProcessBest[url.path] = min(inProcessBest[url.path] ?? .infinity, elapsed / .seconds(1))
                let command = try CommandMeasurement.best(of: 1, trackcast, ["feed", "parse", url.path, "--json"])
                commandBest[url.path] = min(commandBest[url.path] ?? .infinity, max(0, command.seconds - startUp.seconds))
            }
        }
        let inProcessSeconds = inProcessBest.values.reduce(0, +)
        let commandSeconds = commandBest.values.reduce(0, +)
        let largest = files.max { $0.data.count < $1.data.count }!

        let startUpPeak = try peakResidentBytes(["feed", "parse", tiny.path, "--json"])
        let largestPeak = try peakResidentBytes(["feed", "parse", largest.url.path, "--json"])

        let peerSeconds = peerBest.values.reduce(0, +)
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
