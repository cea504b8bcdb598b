import Foundation
import Testing
import TestSupport

/// The real binary SIGKILLed in the middle of its work: no clean-up runs, as
/// when the machine loses power or the process is killed. The library must
/// stay intact, show nothing half-done, and the next run must finish the job.
@Suite("Killed mid-work", .needs("sqlite3"))
struct LibraryKillTests {
    static let shows = 24
    static let episodes = 400

    @Test("SIGKILL during a refresh: the library is intact, every show whole or untouched, and the next refresh completes")
    func killDuringRefresh() async throws {
        let hosts = try (1...3).map { try TestHTTPServer(address: "127.0.0.\($0)") }
        var lines: [String] = []
        var answerLater: [(TestHTTPServer, String, Data)] = []
        for show in 0..<Self.shows {
            let host = hosts[show % hosts.count]
            let feed = PodcastFeedWriter(title: "Show \(show)", episodes: Self.episodes).data()
            if show < Self.shows / 2 {
                // A short wait per answer spreads the writes out, so the kill lands among them.
                host.route("/\(show).xml", .delay(.milliseconds(40), then: .init(.document(feed, contentType: "text/xml"))))
            } else {
                // Unanswered until after the kill: however fast the rest goes, the refresh cannot finish first.
                host.route("/\(show).xml", .stall)
                answerLater.append((host, "/\(show).xml", feed))
            }
            lines.append("<outline type=\"rss\" text=\"Show \(show)\" xmlUrl=\"\(host.url("/\(show).xml"))\"/>")
        }
        let cli = try LibraryCLI()
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-\(UUID()).opml")
        defer { try? FileManager.default.removeItem(at: list) }
        try "<opml version=\"2.0\"><body>\(lines.joined())</body></opml>".write(to: list, atomically: true, encoding: .utf8)
        #expect(try await cli.run(["import-opml", list.path, "--no-refresh"]).status == 0)

        let refresh = try cli.start(["refresh"])
        let caught = await refresh.waitFor(timeout: .seconds(30)) { $0.standardOutput.split(separator: "\n").count >= 4 }
        #expect(caught)
        kill(refresh.pid, SIGKILL)
        let killed = await refresh.finish()
        let finishedBeforeKill = killed.standardOutput.split(separator: "\n").count
        #expect(finishedBeforeKill < Self.shows, "the refresh finished before it could be killed")

        #expect(try await cli.integrityCheck() == "ok")
        let counts = Dictionary(grouping: try await cli.episodes(), by: { $0["show_id"] as? Int ?? 0 }).mapValues(\.count)
        #expect(counts.values.allSatisfy { $0 == Self.episodes }, "\(counts)")
        #expect(counts.count >= finishedBeforeKill)

        for (host, path, feed) in answerLater {
            host.route(path, .document(feed, contentType: "text/xml"))
        }
        let again = try await cli.run(["refresh"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try await cli.episodes().count == Self.shows * Self.episodes)
        #expect(try await cli.shows().allSatisfy { $0[3].hasPrefix("Show ") && $0.count == 5 })
    }

    @Test("SIGKILL during a download: nothing shows as complete, and the next run resumes with a Range request")
    func killDuringDownload() async throws {
        let media = try TestHTTPServer(address: "127.0.0.2")
        let feeds = try TestHTTPServer()
        let feed = PodcastFeedWriter(title: "Big Files", episodes: 1, mediaBase: media.url(""))
        feeds.route("/feed.xml", .document(feed.data(), contentType: "text/xml"))
        let bytes = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 10) })
        // Stalls part-way, so the kill lands mid-download however slowly a loaded machine polls.
        media.route("/big-files/1.mp3", .stallAfter(bytes: 400_000, bytes, contentType: "audio/mpeg"))
        let cli = try LibraryCLI()
        #expect(try await cli.run(["subscribe", feeds.url("/feed.xml")]).status == 0)
        let partial = cli.downloads.appendingPathComponent(".episode-1.part")

        let download = try cli.start(["download", "1"])
        let started = await download.waitFor(timeout: .seconds(20)) { _ in Self.size(partial) >= 200_000 }
        #expect(started)
        kill(download.pid, SIGKILL)
        _ = await download.finish()
        let kept = Self.size(partial)
        #expect(kept >= 200_000 && kept < bytes.count)

        #expect(try await cli.integrityCheck() == "ok")
        #expect(try await cli.episodes().first?["download"] as? String == "downloading")
        let visible = try FileManager.default.subpathsOfDirectory(atPath: cli.downloads.path).filter { !$0.hasPrefix(".") }
        #expect(visible.isEmpty, "\(visible)")

        media.route("/big-files/1.mp3", .serve(bytes, contentType: "audio/mpeg"))
        let resumed = try await cli.run(["download", "1"])

        #expect(resumed.status == 0, "\(resumed.standardError)")
        let resumeRequest = try #require(media.log(for: "/big-files/1.mp3").last)
        #expect(resumeRequest.headers["range"] == "bytes=\(kept)-")
        #expect(resumeRequest.status == 206)
        let file = URL(fileURLWithPath: resumed.standardOutput.trimmingCharacters(in: .newlines))
        #expect(try Data(contentsOf: file) == bytes)
        #expect(try await cli.episodes().first?["download"] as? String == "complete")
    }

    static func size(_ file: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }
}
