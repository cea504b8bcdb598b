import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// The automatic refresh through the running app: a library whose shows
/// were last refreshed together two hours ago, a feed on loopback that has
/// gained an episode since, and the app started on it with nothing asked.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// A library subscribed to a one-episode feed on `server`, last refreshed whole two hours ago;
    /// the feed then gains a second episode.
    private static func libraryRefreshedTwoHoursAgo(on server: TestHTTPServer) async throws -> URL {
        let library = RunningApp.temporaryLibrary()
        let feed = PodcastFeedWriter(title: "Hourly", episodes: 1)
        server.route("/feed", .document(feed.data(), contentType: "application/rss+xml"))
        let store = try await LibraryStore(directory: library)
        let refresher = FeedRefresher(store: store, client: HTTPClient(userAgent: "Trackcast-tests"))
        _ = try await refresher.subscribe(to: try #require(URL(string: server.url("/feed"))))
        try await store.setLastFullRefresh(Date(timeIntervalSinceNow: -2 * 3600))
        server.route("/feed", .document(PodcastFeedWriter(title: "Hourly", episodes: 2).data(),
                                        contentType: "application/rss+xml"))
        return library
    }

    @Test("automatic refresh: a library last refreshed two hours ago is refreshed at start, and not again at the next start")
    func automaticRefreshAtStart() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let library = try await Self.libraryRefreshedTwoHoursAgo(on: server)
        defer { try? FileManager.default.removeItem(at: library) }

        let first = try await RunningApp.launch(library: library).quitting { app in
            try #require(await app.waitForLine("automatic refresh: due, refreshing"), "\(app.standardOutput)")
            try #require(await app.waitForLine("refreshed 1 shows, 0 failed"), "\(app.standardOutput)")
            // The next one an hour after this one started.
            try #require(await app.waitForLine("automatic refresh: due in 3"), "\(app.standardOutput)")
        }
        #expect(first.status == 0 && !first.timedOut)
        #expect(server.log(for: "/feed").count == 2, "\(server.requests)")
        let store = try await LibraryStore(directory: library)
        let show = try #require(try await store.shows().first)
        #expect(try await store.episodes(of: show.id, limit: 10).count == 2)
        let last = try #require(try await store.lastFullRefresh())
        #expect(abs(last.timeIntervalSinceNow) < 600, "\(last)")

        let second = try await RunningApp.launch(library: library).quitting { app in
            try #require(await app.waitForLine("automatic refresh: due in 3"), "\(app.standardOutput)")
            #expect(!app.standardOutput.contains("automatic refresh: due, refreshing"), "\(app.standardOutput)")
        }
        #expect(second.status == 0 && !second.timedOut)
        #expect(server.log(for: "/feed").count == 2, "\(server.requests)")
    }

    @Test("automatic refresh: with Check for New Episodes set to Only When Asked, nothing is fetched at start")
    func automaticRefreshOff() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let library = try await Self.libraryRefreshedTwoHoursAgo(on: server)
        defer { try? FileManager.default.removeItem(at: library) }
        let settings = try SettingsKeyfile(["refresh-interval-hours=0"])
        defer { settings.remove() }

        let result = try await RunningApp.launch(library: library, environment: settings.environment).quitting { app in
            try #require(await app.waitForLine("automatic refresh: off"), "\(app.standardOutput)")
            // Asked by hand, it still refreshes.
            try await app.activate("refresh")
            try #require(await app.waitForLine("refreshed 1 shows, 0 failed"), "\(app.standardOutput)")
            #expect(!app.standardOutput.contains("automatic refresh: due"), "\(app.standardOutput)")
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(server.log(for: "/feed").count == 2, "subscribe and the refresh by hand: \(server.requests)")
    }
}
