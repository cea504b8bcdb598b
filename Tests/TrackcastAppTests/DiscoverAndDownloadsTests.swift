import Foundation
import TestSupport
import Testing
import TrackcastLibrary
@testable import TrackcastUI

/// Discover, the Downloads page and reordering the queue, through the
/// running app: a directory and feeds on loopback, actions over D-Bus,
/// text typed with xdotool, the app's debug log read back.
extension RunningAppTests {
    private func runDiscoverApp(library: URL, directory: TestHTTPServer,
                                _ body: (RunningApp) async throws -> Void) async throws {
        let app = try await RunningApp.launch(library: library,
                                              environment: ["TRACKCAST_ITUNES_SEARCH_URL": directory.url("/search")])
        let result = try await app.quitting(after: body)
        #expect(result.status == 0 && !result.timedOut)
        #expect(!result.standardError.contains("CRITICAL") && !result.standardError.contains("Gtk-WARNING"),
                "GTK complained: \(result.standardError)")
    }

    private func xdotool(_ arguments: String...) async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"), arguments: arguments)
        #expect(result.status == 0, "xdotool \(arguments): \(result.standardError)")
    }

    private static func discoverLibrary() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-discover-\(UUID())")
    }

    private static func line(_ output: String, after offset: String.Index, contains text: String) -> Bool {
        output[offset...].contains(text)
    }

    @Test("Discover: typed search (spaces included) lists the directory's results; Subscribe adds the show and marks it")
    func discoverSubscribes() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed", .serve(PodcastFeedWriter(title: "Loopback Talk", episodes: 2).data(),
                                     contentType: "application/rss+xml"))
        server.route("/search", .serve(Data("""
            {"resultCount":3,"results":[
              {"collectionName":"Loopback Talk","artistName":"Example Media","feedUrl":"\(server.url("/feed"))",
               "artworkUrl600":"\(server.url("/missing.png"))","trackCount":2,"primaryGenreName":"Technology"},
              {"collectionName":"<b>Not bold</b>","artistName":"Markup","feedUrl":"https://feeds.example.org/markup.xml"},
              {"collectionName":"Local file","feedUrl":"file:///etc/passwd"}]}
            """.utf8), contentType: "application/json"))
        let library = Self.discoverLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        try await runDiscoverApp(library: library, directory: server) { app in
            try await app.activate("discover")
            try #require(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("showing discover") })
            // With no window manager the pointer's window has the keyboard.
            try await xdotool("mousemove", "200", "200")
            try await xdotool("type", "--delay", "30", "loopback talk")
            try await xdotool("key", "Return")
            let found = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("discover: 2 results") }
            try #require(found, "no results: \(app.standardOutput) \(app.standardError)")
            #expect(app.standardOutput.contains("searching Apple Podcasts for “loopback talk”"),
                    "Space did not reach the search entry: \(app.standardOutput)")
            let search = try #require(server.log(for: "/search").last)
            #expect(search.requestLine.contains("term=loopback"), "\(search.requestLine)")
            #expect(app.standardOutput.contains("discover result: <b>Not bold</b> <https://feeds.example.org/markup.xml>"))
            #expect(!app.standardOutput.contains("Local file"))

            // What the result's Subscribe button activates.
            try await app.activate("subscribe-from-directory", "[<'\(server.url("/feed"))'>]")
            let subscribed = await app.waitFor(timeout: .seconds(20)) {
                $0.standardOutput.contains("discover: \(server.url("/feed")) subscribed")
                    && $0.standardOutput.contains("library: 1 shows")
            }
            #expect(subscribed, "the show was not added: \(app.standardOutput) \(app.standardError)")
            #expect(app.standardOutput.contains("toast: Subscribed to “Loopback Talk”"))
            // Still on Discover: no show page was opened.
            #expect(!app.standardOutput.contains("showing show 1"))
        }
    }

    @Test("Discover: a failing directory shows the failure, and Retry-able search works once it recovers")
    func discoverFailure() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/search", .status(500))
        let library = Self.discoverLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        try await runDiscoverApp(library: library, directory: server) { app in
            try await app.activate("discover")
            try #require(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("showing discover") })
            try await xdotool("mousemove", "200", "200")
            try await xdotool("type", "--delay", "30", "anything")
            try await xdotool("key", "Return")
            let failed = await app.waitFor(timeout: .seconds(20)) {
                $0.standardOutput.contains("discover: search failed: httpStatus(500)")
            }
            #expect(failed, "the failure was not shown: \(app.standardOutput)")
            server.route("/search", .serve(Data(#"{"results":[]}"#.utf8), contentType: "application/json"))
            try await xdotool("key", "Return")
            let empty = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("discover: 0 results") }
            #expect(empty, "the second search did not run: \(app.standardOutput)")
        }
    }

    @Test("Downloads: a download is listed while it runs and when complete, and leaves the list when deleted")
    func downloadsPage() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let media = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        // Slow enough to be seen running: about 3 s.
        server.route("/episode.mp3", .throttled(media, contentType: "audio/mpeg", bytesPerSecond: 200_000))
        server.route("/feed", .serve(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Downloadable</title>
              <item><title>Long one</title><guid>w</guid>
                <enclosure url="/episode.mp3" type="audio/mpeg" length="\(media.count)"/></item>
            </channel></rss>
            """.utf8), contentType: "application/rss+xml"))
        let library = Self.discoverLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        try await runDiscoverApp(library: library, directory: server) { app in
            try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("show page: 1 episodes") })
            try await app.activate("show-downloads")
            try #require(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("showing downloads") })

            try await app.activate("download-episode", "[<int64 1>]")
            let running = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("downloads: 1 [1 downloading]") }
            #expect(running, "the running download was not listed: \(app.standardOutput)")
            let complete = await app.waitFor(timeout: .seconds(30)) { $0.standardOutput.contains("downloads: 1 [1 complete]") }
            try #require(complete, "the download was not listed complete: \(app.standardOutput) \(app.standardError)")

            let beforeDelete = app.standardOutput.endIndex
            try await app.activate("delete-download", "[<int64 1>]")
            let gone = await app.waitFor(timeout: .seconds(10)) {
                Self.line($0.standardOutput, after: beforeDelete, contains: "downloads: 0 []")
            }
            #expect(gone, "the deleted download stayed listed: \(app.standardOutput[beforeDelete...])")
        }
    }

    @Test("Downloads: cancelling a running download lists it as failed, and Retry resumes it to the end")
    func downloadCancelAndRetry() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let media = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        server.route("/episode.mp3", .throttled(media, contentType: "audio/mpeg", bytesPerSecond: 100_000))
        server.route("/feed", .serve(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Cancellable</title>
              <item><title>Slow one</title><guid>s</guid>
                <enclosure url="/episode.mp3" type="audio/mpeg" length="\(media.count)"/></item>
            </channel></rss>
            """.utf8), contentType: "application/rss+xml"))
        let library = Self.discoverLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        try await runDiscoverApp(library: library, directory: server) { app in
            try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("show page: 1 episodes") })
            try await app.activate("download-episode", "[<int64 1>]")
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("downloads: 1 [1 downloading]") })

            try await app.activate("cancel-download", "[<int64 1>]")
            let failed = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("downloads: 1 [1 failed]") }
            #expect(failed, "the cancelled download was not listed as stopped: \(app.standardOutput)")
            #expect(!app.standardOutput.contains("toast: Cannot download"), "a cancel is not a failure to report")

            server.route("/episode.mp3", .serve(media, contentType: "audio/mpeg"))
            try await app.activate("download-episode", "[<int64 1>]")
            let complete = await app.waitFor(timeout: .seconds(30)) { $0.standardOutput.contains("downloads: 1 [1 complete]") }
            #expect(complete, "the retried download did not complete: \(app.standardOutput)")
            #expect(server.log(for: "/episode.mp3").last?.headers["range"]?.hasPrefix("bytes=") == true,
                    "the retry did not resume")
        }
    }

    @Test("Up Next: the move that dropping a row asks for reorders the queue, kept in the library")
    func queueReorder() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed", .serve(PodcastFeedWriter(title: "Queued", episodes: 3).data(), contentType: "application/rss+xml"))
        let library = Self.discoverLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        try await runDiscoverApp(library: library, directory: server) { app in
            try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("show page: 3 episodes") })
            for episode in 1...3 { try await app.activate("queue-last", "[<int64 \(episode)>]") }
            try #require(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("queue order: 1 2 3") })

            // Episode 3 dropped on the upper half of episode 1: first.
            let drop = try #require(UpNext.destination(moving: .init(rawValue: 3), onto: .init(rawValue: 1), after: false,
                                                       in: [1, 2, 3].map { .init(rawValue: $0) }))
            try await app.activate("queue-move", "[<(int64 3, \(drop))>]")
            #expect(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("queue order: 3 1 2") })
            // The keyboard's way: episode 3 one place down.
            try await app.activate("queue-move-down", "[<int64 3>]")
            #expect(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("queue order: 1 3 2") })
        }

        // Kept in the library: the next start reads the same order.
        try await runDiscoverApp(library: library, directory: server) { app in
            #expect(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("queue order: 1 3 2") },
                    "\(app.standardOutput)")
        }
    }
}

@Suite("Dropping a queued episode on another")
struct QueueDropTests {
    static let order = [10, 20, 30, 40].map { EpisodeID(rawValue: $0) }

    @Test("before or after the target, counted without the dragged episode")
    func destinations() {
        func place(_ moving: Int64, _ target: Int64, after: Bool) -> Int? {
            UpNext.destination(moving: EpisodeID(rawValue: moving), onto: EpisodeID(rawValue: target), after: after,
                               in: Self.order)
        }
        #expect(place(40, 10, after: false) == 0)
        #expect(place(40, 10, after: true) == 1)
        #expect(place(10, 40, after: true) == 3)
        #expect(place(10, 40, after: false) == 2)
        #expect(place(20, 30, after: false) == 1)
        #expect(place(30, 20, after: true) == 2)
        #expect(place(20, 20, after: true) == nil)
        #expect(place(99, 20, after: true) == nil)
    }
}
