import Foundation
import TestSupport
import Testing

/// Automatic downloads through the running app: a feed and its media on
/// loopback, a show set to download new episodes (`show-auto-download`), the
/// feed gaining an episode, a refresh (`refresh`), and the network metered
/// or not through GIO's network monitor (`FakeNetworkManager`).
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// Serves a feed of `episodes` episodes, newest first, whose media are `/N.mp3` on `server`.
    private static func serveAutoDownloadFeed(_ episodes: Int, media: Data, on server: TestHTTPServer) {
        let items = (1...episodes).reversed().map { number in
            """
            <item><title>Part \(number)</title><guid>part-\(number)</guid>
              <pubDate>Mon, 0\(number) Jan 2024 10:00:00 GMT</pubDate>
              <enclosure url="\(server.url("/\(number).mp3"))" type="audio/mpeg" length="\(media.count)"/></item>
            """
        }
        server.route("/feed", .document(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Automatic</title>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """.utf8), contentType: "application/rss+xml"))
        for number in 1...episodes { server.route("/\(number).mp3", .serve(media, contentType: "audio/mpeg")) }
    }

    /// What an automatic downloads test runs against: a metered network,
    /// the feed and its media on loopback, the app on a library of its own.
    private struct Setup {
        let network: FakeNetworkManager
        let server: TestHTTPServer
        let media = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let library = RunningApp.temporaryLibrary()

        /// The app on the metered network, subscribed to the one-episode feed with the show set to download
        /// new episodes, refreshed after the feed gained episode 2; `body` goes on from there, and
        /// `afterQuit` once the app has quit, with the network, the server and the library still there.
        static func run(environment: [String: String?] = [:], _ body: (RunningApp, Setup) async throws -> Void,
                        afterQuit: (Setup) async throws -> Void = { _ in }) async throws {
            let setup = Setup(network: try await FakeNetworkManager(metered: true), server: try TestHTTPServer())
            defer {
                setup.network.stop()
                setup.server.stop()
                try? FileManager.default.removeItem(at: setup.library)
            }
            let server = setup.server
            RunningAppTests.serveAutoDownloadFeed(1, media: setup.media, on: server)
            let app = try await RunningApp.launch(library: setup.library,
                                                  environment: setup.network.environment.merging(environment) { $1 })
            let result = try await app.quitting { app in
                try #require(await app.waitForLine("data saver: metered"), "\(app.standardOutput)")
                try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
                try #require(await app.waitForLine("show page: 1 episodes"), "\(app.standardOutput)")
                try await app.activate("show-auto-download", "[<(int64 1, true)>]")
                try #require(await app.waitForLine("show 1 settings: speed default, intro 0.0 s, outro 0.0 s, auto-download on"),
                             "\(app.standardOutput)")
                RunningAppTests.serveAutoDownloadFeed(2, media: setup.media, on: server)
                try await app.activate("refresh")
                try #require(await app.waitForLine("refreshed 1 shows, 0 failed"), "\(app.standardOutput)")
                try await body(app, setup)
            }
            #expect(result.status == 0 && !result.timedOut)
            try await afterQuit(setup)
        }
    }

    /// The file the app says it downloaded `episode` to: in the library's downloads, with `media` in it.
    private static func expectDownloaded(_ episode: Int, media: Data, by app: RunningApp, in library: URL) {
        let said = "downloaded episode \(episode) to "
        guard let start = app.standardOutput.range(of: said) else {
            Issue.record("no download of episode \(episode): \(app.standardOutput)")
            return
        }
        let file = URL(fileURLWithPath: String(app.standardOutput[start.upperBound...].prefix { $0 != "\n" }))
        let downloads = library.appendingPathComponent("downloads").standardizedFileURL.path + "/"
        #expect(file.standardizedFileURL.path.hasPrefix(downloads), "\(file.path)")
        #expect(FileManager.default.contents(atPath: file.path) == media, "\(file.path)")
    }

    @Test("auto-download: a new episode waits while the network is metered, a download by hand does not, and unmetered fetches it once")
    func autoDownloadWaitsWhileMetered() async throws {
        try await Setup.run { app, setup in
            try #require(await app.waitForLine("auto-download: 1 waiting (metered)"), "\(app.standardOutput)")

            // Episode 1, by hand, is not held back.
            try await app.activate("download-episode", "[<int64 1>]")
            try #require(await app.waitForLine("downloaded episode 1 to"), "\(app.standardOutput)")
            #expect(setup.server.log(for: "/2.mp3").isEmpty, "fetched while metered: \(setup.server.requests)")
            #expect(!app.standardOutput.contains("auto-download: started"), "\(app.standardOutput)")

            let mark = app.standardOutput.endIndex
            setup.network.flip()
            try #require(await app.waitForLine("auto-download: started episode 2", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitForLine("downloaded episode 2 to", after: mark), "\(app.standardOutput[mark...])")
            Self.expectDownloaded(2, media: setup.media, by: app, in: setup.library)

            // Later refreshes bring nothing to download again, downloaded or deleted.
            let again = app.standardOutput.endIndex
            try await app.activate("refresh")
            try #require(await app.waitForLine("refreshed 1 shows, 0 failed", after: again), "\(app.standardOutput[again...])")
            try await app.activate("delete-download", "[<int64 2>]")
            try #require(await app.waitForLine("deleted the download of episode 2", after: again))
            try await app.activate("refresh")
            try #require(await app.waitFor(timeout: .seconds(20)) {
                $0.standardOutput[again...].components(separatedBy: "refreshed 1 shows").count == 3
            }, "\(app.standardOutput[again...])")
            #expect(!app.standardOutput[again...].contains("auto-download: "), "\(app.standardOutput[again...])")
            #expect(setup.server.log(for: "/2.mp3").count == 1, "\(setup.server.requests)")
        }
    }

    @Test("auto-download: a waiting episode the user downloads and deletes is not fetched again when the network is unmetered")
    func autoDownloadLeavesWhatTheUserTook() async throws {
        try await Setup.run { app, setup in
            try #require(await app.waitForLine("auto-download: 1 waiting (metered)"), "\(app.standardOutput)")
            try await app.activate("download-episode", "[<int64 2>]")
            try #require(await app.waitForLine("downloaded episode 2 to"), "\(app.standardOutput)")
            try await app.activate("delete-download", "[<int64 2>]")
            try #require(await app.waitForLine("deleted the download of episode 2"), "\(app.standardOutput)")

            let mark = app.standardOutput.endIndex
            setup.network.flip()
            try #require(await app.waitForLine("data saver: not metered", after: mark), "\(app.standardOutput[mark...])")
            // A download started on the flip asks the library first, before
            // anything a refresh does: the refresh answered, it would have said so.
            try await app.activate("refresh")
            try #require(await app.waitForLine("refreshed 1 shows", after: mark), "\(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("auto-download: started"), "\(app.standardOutput[mark...])")
            #expect(setup.server.log(for: "/2.mp3").count == 1, "\(setup.server.requests)")
        }
    }

    @Test("auto-download: with Automatic Downloads on Metered Networks on, a new episode downloads at once while metered")
    func autoDownloadAllowedOnMetered() async throws {
        let settings = try SettingsKeyfile(["auto-download-on-metered=true"])
        defer { settings.remove() }
        try await Setup.run(environment: settings.environment) { app, setup in
            try #require(await app.waitForLine("auto-download: started episode 2"), "\(app.standardOutput)")
            try #require(await app.waitForLine("downloaded episode 2 to"), "\(app.standardOutput)")
            Self.expectDownloaded(2, media: setup.media, by: app, in: setup.library)
            #expect(!app.standardOutput.contains("waiting (metered)"), "\(app.standardOutput)")
            #expect(setup.server.log(for: "/1.mp3").isEmpty, "the back catalogue was downloaded: \(setup.server.requests)")
        }
    }

    @Test("auto-download: an episode still waiting when the app quits is downloaded when it starts on an unmetered network")
    func autoDownloadWaitsAcrossAQuit() async throws {
        try await Setup.run { app, _ in
            try #require(await app.waitForLine("auto-download: 1 waiting (metered)"), "\(app.standardOutput)")
        } afterQuit: { setup in
            #expect(setup.server.log(for: "/2.mp3").isEmpty, "fetched while metered: \(setup.server.requests)")
            setup.network.flip()
            let app = try await RunningApp.launch(library: setup.library, environment: setup.network.environment)
            let result = try await app.quitting { app in
                try #require(await app.waitForLine("data saver: not metered"), "\(app.standardOutput)")
                try #require(await app.waitForLine("auto-download: started episode 2"), "\(app.standardOutput)")
                try #require(await app.waitForLine("downloaded episode 2 to"), "\(app.standardOutput)")
                Self.expectDownloaded(2, media: setup.media, by: app, in: setup.library)
            }
            #expect(result.status == 0 && !result.timedOut)
            #expect(setup.server.log(for: "/2.mp3").count == 1, "\(setup.server.requests)")
            #expect(setup.server.log(for: "/1.mp3").isEmpty, "the back catalogue was downloaded: \(setup.server.requests)")
        }
    }
}
