import Foundation
import Synchronization
import TrackcastLibrary

/// The search index on a big library: 100,000 episodes (1,000 shows of 100)
/// with notes of realistic length, 2,000 of them with an hour's transcript
/// (900 cues). The build is timed as a library from before the index gets
/// it (`SearchIndexBuilder`, transcripts from a stand-in for the cache)
/// against writing the same library without it; the index's size against
/// the text it indexes; queries' p50 and p99 as the window sees them,
/// against the goal of 20 ms.
struct SearchBenchmark {
    var shows = 1_000
    var episodesPerShow = 100
    var transcribed = 2_000
    var runs = 200
    static let goal = 20.0

    func run() async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-search-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await LibraryStore(directory: folder)
        let clock = ContinuousClock()
        let empty = try await SearchIndexBenchmark.databaseBytes(store)
        var notesBytes = 0
        let fillTime = try await clock.measure {
            notesBytes = try await SearchIndexBenchmark.fill(store, shows: shows, episodesPerShow: episodesPerShow,
                                                            transcribed: transcribed)
        }
        let unindexed = try await SearchIndexBenchmark.databaseBytes(store)
        let transcriptBytes = Mutex(0)
        let buildTime = try await clock.measure {
            try await SearchIndexBuilder(store: store) { episode, _ in
                let transcript = SearchIndexBenchmark.transcript(for: episode)
                transcriptBytes.withLock { $0 += transcript.cues.reduce(0) { $0 + $1.text.utf8.count } }
                return transcript
            }.run()
        }
        let indexed = try await SearchIndexBenchmark.databaseBytes(store)
        let textBytes = notesBytes + transcriptBytes.withLock { $0 }
        let size = "\(shows * episodesPerShow / 1000)k episodes, \(transcribed) hour-long transcripts"

        var rows = [
            BenchRow(measured: "search index build for an existing library, \(size)", unit: "ms",
                     trackcast: buildTime / .milliseconds(1), peerName: "writing that library without it (text, no transcripts)",
                     peer: fillTime / .milliseconds(1)),
            BenchRow(measured: "search index size, \(size)", unit: "MB",
                     trackcast: Double(indexed - unindexed) / 1_000_000, peerName: "the text it indexes (HTML notes, cues)",
                     peer: Double(textBytes) / 1_000_000),
            BenchRow(measured: "library file with the index, \(size)", unit: "MB", trackcast: Double(indexed) / 1_000_000,
                     peerName: "without it", peer: Double(unindexed - empty) / 1_000_000),
        ]
        // Words by their rank in the vocabulary (Zipf's law): one of the most
        // common, one as common as "garden" is in English, a pair, and the
        // three letters that start the second as typed.
        let words = SearchIndexBenchmark.vocabulary
        let queries = [
            ("a very common word (rank 20)", words[20] + " "), ("one word (rank 2,000)", words[2_000] + " "),
            ("two words (ranks 500 and 2,000)", words[500] + " " + words[2_000] + " "),
            ("prefix, three letters", String(words[2_000].prefix(3))),
            ("the commonest word (rank 1)", words[0] + " "),
            ("the commonest word and one of rank 2,000", words[0] + " " + words[2_000] + " "),
            ("prefix, two letters", String(words[2_000].prefix(2))),
            ("prefix, four letters", String(words[2_000].prefix(4))),
        ]
        for timing in try await SearchIndexBenchmark.measure(store, queries: queries, runs: runs) {
            rows.append(BenchRow(measured: "search, \(timing.name), \(size), p50", unit: "ms",
                                 trackcast: timing.p50 / .milliseconds(1), peerName: "goal", peer: Self.goal))
            rows.append(BenchRow(measured: "search, \(timing.name), \(size), p99", unit: "ms",
                                 trackcast: timing.p99 / .milliseconds(1), peerName: "goal", peer: Self.goal))
        }
        return rows
    }
}
