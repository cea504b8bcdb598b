import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// A process killed while it writes must leave a library that is intact and
/// holds every feed apply either whole or not at all.
///
/// The writer is a real, separate process running the real store code: the
/// test binary itself, started again with a filter that runs only this test
/// and an environment variable that makes the test play the writer. It
/// applies large feeds in a loop (each apply rewrites all of a show's
/// episodes, so nearly all of its time is spent inside a transaction) and the
/// test SIGKILLs it at a random moment: no clean-up, no rollback, no close,
/// as when the app is killed or crashes. This is done over several rounds on
/// the same library, each writer recovering what the previous one left.
@Suite("Crash safety")
struct CrashSafetyTests {
    static let writerVariable = "TRACKCAST_CRASH_WRITER_LIBRARY"
    static let shows = 4
    static let episodesPerFeed = 300
    static let rounds = 3

    /// Version `version` of show `show`'s feed: every episode title names the version.
    static func feed(show: Int, version: Int) -> Feed {
        Feed(title: "Show \(show) v\(version)", episodes: (0..<episodesPerFeed).map { index in
            FeedEpisode(guid: "\(show)-\(index)", title: "v\(version) episode \(index)",
                        published: SampleFeed.date(day: index),
                        enclosures: [FeedEnclosure(url: URL(string: "https://media.example.org/\(show)/\(index)-v\(version).mp3")!)],
                        chapters: [FeedChapter(start: 0, title: "v\(version)")])
        })
    }

    static func feedURL(show: Int) -> URL {
        URL(string: "https://crash.example.org/show-\(show).xml")!
    }

    @Test("SIGKILL during feed applies leaves an intact library with whole applies only")
    func killedWriterLeavesConsistentLibrary() async throws {
        if let library = ProcessInfo.processInfo.environment[Self.writerVariable] {
            try await Self.write(library: URL(fileURLWithPath: library))
            return
        }
        let directory = try TemporaryDirectory()
        var committed: [Int: Int] = [:]
        for _ in 0..<Self.rounds {
            let progress = try await Self.runAndKillWriter(library: directory.url)
            committed.merge(progress) { max($0, $1) }
        }
        #expect(!committed.isEmpty)

        let connection = try directory.openConnection()
        #expect(try connection.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")
        #expect(try connection.query("PRAGMA foreign_key_check") { $0.string(0) } == [])

        let store = try await LibraryStore(directory: directory.url)
        for show in try await store.shows() {
            let showNumber = try #require(Int(show.feedURL.lastPathComponent.dropFirst(5).dropLast(4)))
            let version = try #require(show.title?.split(separator: "v").last.flatMap { Int($0) })
            let episodes = try await store.episodes(of: show.id, limit: 10_000)
            // The show's fields and every one of its episodes come from the same apply.
            #expect(episodes.count == Self.episodesPerFeed, "\(show.feedURL)")
            #expect(episodes.allSatisfy { $0.title?.hasPrefix("v\(version) ") == true }, "\(show.feedURL)")
            #expect(episodes.allSatisfy { $0.mediaURL?.lastPathComponent.hasSuffix("-v\(version).mp3") == true })
            let chapterTitles = try connection.query("""
                SELECT DISTINCT c.title FROM chapters c JOIN episodes e ON e.id = c.episode_id WHERE e.show_id = ?
                """, [show.id]) { $0.string(0) }
            #expect(chapterTitles == ["v\(version)"])
            // Nothing the writer saw committed was lost.
            #expect(version >= committed[showNumber] ?? 0, "\(show.feedURL)")
        }
        #expect(try await store.shows().count >= committed.count)
    }

    /// Starts a writer on `library`, waits until it has committed a few
    /// applies, kills it at a random moment, and returns the last version it
    /// reported committed for each show.
    static func runAndKillWriter(library: URL) async throws -> [Int: Int] {
        let progressURL = library.appendingPathComponent("progress")
        try? FileManager.default.removeItem(at: progressURL)
        // The test runner is itself the writer; see the type's comment.
        let process = try ChildProcess(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(),
            arguments: ["--testing-library", "swift-testing",
                        "--filter", "TrackcastLibraryTests.CrashSafetyTests/killedWriterLeavesConsistentLibrary"],
            environment: [writerVariable: library.path])
        defer {
            if process.isRunning { kill(process.pid, SIGKILL) }
        }

        let deadline = ContinuousClock.now + .seconds(60)
        var lines: [Substring] = []
        while lines.count < 3 && process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            lines = ((try? String(contentsOf: progressURL, encoding: .utf8)) ?? "").split(separator: "\n")
        }
        try #require(process.isRunning, "the writer stopped on its own (\(String(describing: process.ended)))")
        try #require(lines.count >= 3, "the writer made no progress in time")
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...150)))
        kill(process.pid, SIGKILL)
        #expect(await process.waitFor(timeout: .seconds(10)) { !$0.isRunning })
        #expect(process.ended == .signalled(SIGKILL))

        var committed: [Int: Int] = [:]
        for line in ((try? String(contentsOf: progressURL, encoding: .utf8)) ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { Int($0) }
            if fields.count == 2 { committed[fields[0]] = max(committed[fields[0]] ?? 0, fields[1]) }
        }
        return committed
    }

    /// The writer's side: apply new versions of the feeds until killed,
    /// appending "show version" to the progress file after each commit.
    /// Bounded in time, so a writer whose parent died goes away by itself.
    static func write(library: URL) async throws {
        let store = try await LibraryStore(directory: library)
        let progressURL = library.appendingPathComponent("progress")
        try Data().write(to: progressURL)
        let progress = try FileHandle(forWritingTo: progressURL)
        let start = ContinuousClock.now
        // Versions continue from what earlier writers left, so every apply changes every episode.
        var version = try await store.shows().compactMap { $0.title?.split(separator: "v").last.flatMap { Int($0) } }.max() ?? 0
        while ContinuousClock.now - start < .seconds(60) {
            version += 1
            let show = version % shows
            try await store.apply(feed: feed(show: show, version: version), fetchedFrom: feedURL(show: show),
                                  etag: nil, lastModified: nil)
            try progress.write(contentsOf: Data("\(show) \(version)\n".utf8))
        }
    }
}
