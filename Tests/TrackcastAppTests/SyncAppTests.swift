import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// Sync in the running app, logged in by the command line with a real GNOME
/// Keyring on the test's own bus, against the loopback gpodder.net server;
/// the test is the phone. Part of "The running app", one app at a time.
extension RunningAppTests {
    @Test("a refresh syncs; a show removed on the phone goes with a toast; a phone's position moves a paused episode with a toast, never a playing one; a refused password is entered again in Preferences")
    func syncInTheApp() async throws {
        let keyring = try await PrivateKeyring(.unlocked)
        defer { keyring.stop() }
        let server = try GPodderTestServer(kind: .gpodder, password: "app-sync-pw")
        defer { server.stop() }
        let media = try await Self.minuteOfAudio()
        let library = RunningApp.temporaryLibrary()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let feeds = try TestHTTPServer()
        defer { feeds.stop() }
        let desk = PodcastFeedWriter(title: "Desk Show", episodes: 1, mediaBase: feeds.url("/media"))
        feeds.route("/desk.xml", .serve(desk.data(), contentType: "application/rss+xml"))
        feeds.route("/phone.xml", .serve(PodcastFeedWriter(title: "Phone Show", episodes: 1).data(), contentType: "application/rss+xml"))
        feeds.route("/media/\(desk.slug)/1.mp3", .serve(try Data(contentsOf: media), contentType: "audio/ogg"))

        let environment = keyring.environment.merging(["GSETTINGS_BACKEND": "keyfile", "LANGUAGE": "en"]) { $1 }
        func cli(_ arguments: [String], input: String? = nil) async throws -> ChildProcess.Result {
            try await ChildProcess(BuiltProducts.executable("trackcast"), arguments: ["--library", library.path] + arguments,
                                   environment: environment.merging(["DISPLAY": nil, "WAYLAND_DISPLAY": nil]) { $1 },
                                   input: input.map { Data($0.utf8) }).finish(timeout: .seconds(60))
        }
        #expect(try await cli(["subscribe", feeds.url("/desk.xml")]).status == 0)
        #expect(try await cli(["subscribe", feeds.url("/phone.xml")]).status == 0)
        let login = try await cli(["sync-login", server.url, "alice", "--device", "desktop"], input: "app-sync-pw\n")
        try #require(login.status == 0, "\(login.standardError)")
        #expect(try await cli(["sync"]).status == 0)
        server.unsubscribe([feeds.url("/phone.xml")])

        let app = try await RunningApp.launch(library: library, environment: environment)
        let result = try await app.quitting { app in
            var mark = app.standardOutput.endIndex
            try await app.activate("refresh")
            try #require(await app.waitForLine("sync: sent 0 subscription changes and 0 actions, received 1 subscription changes and 0 positions",
                                               after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("toast: Unsubscribed from “Phone Show” on another device", after: mark))

            mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playback: playing", after: mark, timeout: .seconds(30)), "\(app.standardOutput[mark...])")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("playback: paused", after: mark))
            try await Task.sleep(for: .seconds(1))
            server.play(podcast: feeds.url("/desk.xml"), episode: feeds.url("/media/\(desk.slug)/1.mp3"), guid: "\(desk.slug)-1",
                        position: 30, total: 60, timestamp: SyncTimestamp.format(Date().addingTimeInterval(2)), device: "Phone")
            mark = app.standardOutput.endIndex
            try await app.activate("sync")
            #expect(await app.waitForLine("toast: Continued from 0:30, from Phone", after: mark), "\(app.standardOutput[mark...])")

            try await app.activate("play-pause")
            try #require(await app.waitForLine("playback: playing", after: mark))
            server.play(podcast: feeds.url("/desk.xml"), episode: feeds.url("/media/\(desk.slug)/1.mp3"), guid: "\(desk.slug)-1",
                        position: 50, total: 60, timestamp: SyncTimestamp.format(Date().addingTimeInterval(4)), device: "Phone")
            mark = app.standardOutput.endIndex
            try await app.activate("sync")
            #expect(await app.waitForLine("sync: a position from Phone waits: the episode is playing", after: mark),
                    "\(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("toast: Continued from"))

            // The password changed elsewhere: asked for again, typed into Preferences → Sync as a person would.
            server.setPassword("new-app-pw")
            mark = app.standardOutput.endIndex
            try await app.activate("sync")
            #expect(await app.waitForLine("toast: The sync server refused the password [Enter Password]", after: mark),
                    "\(app.standardOutput[mark...])")
            try await app.openPreferences("preferences-sync")
            let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
            mark = app.standardOutput.endIndex
            _ = try await ChildProcess.run(xdotool, arguments: ["type", "--delay", "20", "new-app-pw"])
            _ = try await ChildProcess.run(xdotool, arguments: ["key", "Return"])
            #expect(await app.waitForLine("sync: logging in from Preferences", after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("sync: sent 0 subscription changes", after: mark), "\(app.standardOutput[mark...])")
            #expect(try await keyring.lookup("sync-password") == "new-app-pw")
        }
        #expect(result.status == 0 && !result.timedOut)
        let settings = (try? String(contentsOf: keyring.settingsFile, encoding: .utf8)) ?? ""
        #expect(!settings.contains("app-sync-pw") && !settings.contains("new-app-pw"), "the password is in GSettings")
        let database = try Data(contentsOf: library.appendingPathComponent("library.sqlite3"))
        #expect(database.range(of: Data("new-app-pw".utf8)) == nil, "the password is in the library")
    }
}
