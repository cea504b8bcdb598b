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

    /// Subscribes to the one-episode feed, sets the show to download new
    /// episodes, and refreshes after the feed gained episode 2.
    private static func refreshWithNewEpisode(_ app: RunningApp, server: TestHTTPServer, media: Data) async throws {
        try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
        try #require(await app.waitForLine("show page: 1 episodes"), "\(app.standardOutput)")
        try await app.activate("show-auto-download", "[<(int64 1, true)>]")
        try #require(await app.waitForLine("show 1 settings: speed default, intro 0.0 s, outro 0.0 s, auto-download on"),
                     "\(app.standardOutput)")
        serveAutoDownloadFeed(2, media: media, on: server)
        try await app.activate("refresh")
        try #require(await app.waitForLine("refreshed 1 shows, 0 failed"), "\(app.standardOutput)")
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
        let network = try await FakeNetworkManager(metered: true)
        defer { network.stop() }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let media = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        Self.serveAutoDownloadFeed(1, media: media, on: server)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, environment: network.environment)
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("data saver: metered"), "\(app.standardOutput)")
            try await Self.refreshWithNewEpisode(app, server: server, media: media)
            try #require(await app.waitForLine("auto-download: 1 waiting (metered)"), "\(app.standardOutput)")

            // Episode 1, by hand, is not held back.
            try await app.activate("download-episode", "[<int64 1>]")
            try #require(await app.waitForLine("downloaded episode 1 to"), "\(app.standardOutput)")
            #expect(server.log(for: "/2.mp3").isEmpty, "fetched while metered: \(server.requests)")
            #expect(!app.standardOutput.contains("auto-download: started"), "\(app.standardOutput)")

            let mark = app.standardOutput.endIndex
            network.flip()
            try #require(await app.waitForLine("auto-download: started episode 2", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitForLine("downloaded episode 2 to", after: mark), "\(app.standardOutput[mark...])")
            Self.expectDownloaded(2, media: media, by: app, in: library)

            // A later refresh brings nothing to download again.
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
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(server.log(for: "/2.mp3").count == 1, "\(server.requests)")
    }

    @Test("auto-download: with Automatic Downloads on Metered Networks on, a new episode downloads at once while metered")
    func autoDownloadAllowedOnMetered() async throws {
        let network = try await FakeNetworkManager(metered: true)
        defer { network.stop() }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let media = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        Self.serveAutoDownloadFeed(1, media: media, on: server)
        // The preference, set as Preferences sets it, in a keyfile of this test's own.
        let configHome = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-config-\(UUID())")
        defer { try? FileManager.default.removeItem(at: configHome) }
        let keyfile = configHome.appendingPathComponent("glib-2.0/settings/keyfile")
        try FileManager.default.createDirectory(at: keyfile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[org/trackcast/Trackcast]\nauto-download-on-metered=true\n".write(to: keyfile, atomically: true, encoding: .utf8)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, environment: network.environment.merging([
            "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": configHome.path,
        ]) { $1 })
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("data saver: metered"), "\(app.standardOutput)")
            try await Self.refreshWithNewEpisode(app, server: server, media: media)
            try #require(await app.waitForLine("auto-download: started episode 2"), "\(app.standardOutput)")
            try #require(await app.waitForLine("downloaded episode 2 to"), "\(app.standardOutput)")
            Self.expectDownloaded(2, media: media, by: app, in: library)
            #expect(!app.standardOutput.contains("waiting (metered)"), "\(app.standardOutput)")
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(server.log(for: "/1.mp3").isEmpty, "the back catalogue was downloaded: \(server.requests)")
    }
}
