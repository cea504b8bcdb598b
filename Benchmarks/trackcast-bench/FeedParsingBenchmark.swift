import Foundation
import TestSupport
import TrackcastLibrary

/// Feed parsing throughput, Trackcast's parser against gPodder's
/// podcastparser (Python, SAX over expat) on the same files in the same run.
/// The files are real-world-shaped RSS of three sizes; both parsers must find
/// the same number of episodes in each, or the row is not reported.
struct FeedParsingBenchmark {
    let peer: PodcastparserPeer
    var sizes = [30, 300, 3000]
    var runs = 20

    func run() async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-feeds-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [URL] = []
        for size in sizes {
            let file = folder.appendingPathComponent("feed-\(size).xml")
            try PodcastFeedWriter(title: "Bench Show \(size)", episodes: size).data().write(to: file)
            files.append(file)
        }

        var ours: (bytes: Int, episodes: Int, seconds: Double) = (0, 0, 0)
        var counts: [String: Int] = [:]
        for file in files {
            let data = try Data(contentsOf: file)
            let url = URL(string: "https://feeds.example.org/\(file.lastPathComponent)")!
            let episodes = try FeedParser().parse(data, url: url).episodes.count
            counts[file.path] = episodes
            let elapsed = try ContinuousClock().measure {
                for _ in 0..<runs { _ = try FeedParser().parse(data, url: url) }
            }
            ours.bytes += data.count
            ours.episodes += episodes
            ours.seconds += elapsed / .seconds(1) / Double(runs)
        }

        let peerResults = try peer.timings(files, runs: runs)
        for result in peerResults where counts[result.file] != result.episodes {
            throw ParsingBenchmarkError.episodeCountsDiffer(file: result.file, trackcast: counts[result.file] ?? -1,
                                                            podcastparser: result.episodes)
        }
        let peerSeconds = peerResults.map(\.seconds).reduce(0, +)
        let megabytes = Double(ours.bytes) / 1_048_576
        let label = "feeds of \(sizes.map(String.init).joined(separator: "/")) episodes"
        return [
            BenchRow(measured: "feed parsing throughput, \(label) (higher is better)", unit: "MB/s",
                     trackcast: megabytes / ours.seconds, peerName: "podcastparser (Python)",
                     peer: megabytes / peerSeconds),
            BenchRow(measured: "feed parsing, episodes per second (higher is better)", unit: "k/s",
                     trackcast: Double(ours.episodes) / ours.seconds / 1000, peerName: "podcastparser (Python)",
                     peer: Double(ours.episodes) / peerSeconds / 1000),
        ]
    }
}

/// gPodder's podcastparser timed on feed files by Benchmarks/peers/podcastparser-bench.py.
struct PodcastparserPeer {
    let python: URL
    let pythonPath: URL
    let script: URL

    struct Result: Decodable {
        let file: String
        let episodes: Int
        /// Mean seconds per parse, after one untimed parse.
        let seconds: Double
    }

    func timings(_ files: [URL], runs: Int) throws -> [Result] {
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, String(runs)] + files.map(\.path)
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONPATH": pythonPath.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ParsingBenchmarkError.peerFailed(process.terminationStatus) }
        return try JSONDecoder().decode([Result].self, from: data)
    }
}

enum ParsingBenchmarkError: Error, CustomStringConvertible {
    case episodeCountsDiffer(file: String, trackcast: Int, podcastparser: Int)
    case peerFailed(Int32)
    case peakMemoryFailed(Int32)

    var description: String {
        switch self {
        case .episodeCountsDiffer(let file, let ours, let theirs):
            "\(file): Trackcast found \(ours) episodes, podcastparser \(theirs)"
        case .peerFailed(let status): "podcastparser-bench.py exited with \(status)"
        case .peakMemoryFailed(let status): "peak-memory.py exited with \(status)"
        }
    }
}
