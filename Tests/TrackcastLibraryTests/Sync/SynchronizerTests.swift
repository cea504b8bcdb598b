import Foundation
import TestSupport
import Testing
@testable import TrackcastLibrary

/// Sync against the loopback gpodder.net and GPodder Sync servers, with a
/// real library database; the test plays the other device ("phone").
@Suite("Sync")
struct SynchronizerTests {
    /// A library with one show (episodes 1…3) logged in to `server`.
    final class Harness {
        let directory: TemporaryDirectory
        let store: LibraryStore
        let client = HTTPClient(userAgent: "Trackcast-tests")
        let server: GPodderTestServer
        let synchronizer: Synchronizer
        let showID: ShowID

        init(kind: GPodderTestServer.Kind = .gpodder, logIn: Bool = true) async throws {
            directory = try TemporaryDirectory()
            store = try await LibraryStore(directory: directory.url)
            server = try GPodderTestServer(kind: kind)
            showID = try await store.apply(feed: SampleFeed.feed(1...3), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
                .showID
            synchronizer = Synchronizer(store: store, client: client)
            if logIn {
                _ = try await SyncLogin.logIn(server: URL(string: server.url)!, user: "alice", password: "secret",
                                              device: "desktop", store: store, client: client)
            }
        }

        deinit { server.stop() }

        func sync() async throws -> SyncReport { try await synchronizer.sync(password: "secret") }

        func episode(_ number: Int) async throws -> EpisodeID {
            let episodes = try await store.episodes(of: showID, limit: 100)
            guard let found = episodes.first(where: { $0.title == "Episode \(number)" }) else { throw CancellationError() }
            return found.id
        }

        /// Actions the server holds from this device, per episode URL.
        func ownActions() -> [String: Int] {
            server.actions.filter { $0.device == "desktop" }.reduce(into: [:]) { $0[$1.episode ?? "", default: 0] += 1 }
        }
    }

    static func iso(_ date: Date) -> String { SyncTimestamp.format(date) }

    @Test("login finds each kind of server; a wrong password is refused as such", arguments: [GPodderTestServer.Kind.gpodder, .nextcloud])
    func login(kind: GPodderTestServer.Kind) async throws {
        let harness = try await Harness(kind: kind, logIn: false)
        let url = URL(string: harness.server.url)!
        await #expect(throws: SyncError.unauthorized) {
            try await SyncLogin.logIn(server: url, user: "alice", password: "wrong", device: "desktop",
                                      store: harness.store, client: harness.client)
        }
        let account = try await SyncLogin.logIn(server: url, user: "alice", password: "secret", device: "desktop",
                                                store: harness.store, client: harness.client)
        #expect(account.kind == (kind == .gpodder ? .gpodder : .nextcloud))
        #expect(harness.server.devices.keys.sorted() == (kind == .gpodder ? ["desktop"] : []))
        let refresh = TestHTTPServer.Behaviour.status(404)
        let plain = try TestHTTPServer()
        plain.routeEverythingElse(refresh)
        defer { plain.stop() }
        await #expect(throws: SyncError.notASyncServer) {
            try await SyncLogin.logIn(server: URL(string: plain.url(""))!, user: "alice", password: "secret",
                                      device: "desktop", store: harness.store, client: harness.client)
        }
    }

    @Test("subscriptions follow both ways, and each change is sent once", arguments: [GPodderTestServer.Kind.gpodder, .nextcloud])
    func subscriptionsFollow(kind: GPodderTestServer.Kind) async throws {
        let harness = try await Harness(kind: kind)
        harness.server.subscribe(["https://phone.example.org/feed.xml"])
        let first = try await harness.sync()
        #expect(first.sentSubscriptionChanges == 1)
        #expect(first.receivedSubscriptionChanges == 1)
        #expect(harness.server.subscriptions == [SampleFeed.url.absoluteString, "https://phone.example.org/feed.xml"])
        #expect(try await harness.store.show(feedURL: URL(string: "https://phone.example.org/feed.xml")!) != nil)
        #expect(first.addedShows.count == 1)

        // Unsubscribed on the phone: gone here too, as an unsubscribe removes it.
        harness.server.unsubscribe([SampleFeed.url.absoluteString])
        let second = try await harness.sync()
        #expect(second.sentSubscriptionChanges == 0, "the phone's own show came back as a change to send")
        #expect(second.removedShows.map(\.show.feedURL) == [SampleFeed.url])
        #expect(try await harness.store.show(feedURL: SampleFeed.url) == nil)
        #expect(harness.server.subscriptions == ["https://phone.example.org/feed.xml"])

        // Unsubscribed here: the server hears it once.
        let phoneShow = try #require(try await harness.store.show(feedURL: URL(string: "https://phone.example.org/feed.xml")!))
        try await harness.store.unsubscribe(phoneShow.id)
        let third = try await harness.sync()
        #expect(third.sentSubscriptionChanges == 1)
        #expect(harness.server.subscriptions.isEmpty)
        #expect(try await harness.sync().sentSubscriptionChanges == 0)
    }

    @Test("a newer position from the phone moves the resume position; an older one is ignored; finished there is played")
    func positions() async throws {
        let harness = try await Harness()
        let one = try await harness.episode(1), two = try await harness.episode(2), three = try await harness.episode(3)
        let now = Date()
        // Local positions, recorded a minute ago.
        try await harness.store.savePositions([
            ResumePositionUpdate(key: .episode(one), position: 100, duration: 1800, updated: now - 60),
            ResumePositionUpdate(key: .episode(two), position: 200, duration: 1800, updated: now - 60),
        ])
        let media = { (n: Int) in "https://media.example.org/\(n).mp3" }
        harness.server.play(podcast: SampleFeed.url.absoluteString, episode: media(1), guid: "guid-1", position: 2470,
                            total: 3600, timestamp: Self.iso(now - 10))
        harness.server.play(podcast: SampleFeed.url.absoluteString, episode: media(2), position: 50, total: 1800,
                            timestamp: Self.iso(now - 3600))
        harness.server.play(podcast: SampleFeed.url.absoluteString, episode: media(3), guid: "guid-3", position: 1795,
                            total: 1800, timestamp: Self.iso(now - 5))
        let report = try await harness.sync()
        #expect(report.positions.map(\.episode).sorted { $0.rawValue < $1.rawValue } == [one, three])
        #expect(report.positions.first { $0.episode == one }?.device == "phone")
        #expect(try await harness.store.position(for: .episode(one))?.position == 2470)
        #expect(try await harness.store.position(for: .episode(two))?.position == 200, "an older action moved the position")
        #expect(try await harness.store.episodeSummary(three)?.isPlayed == true)
        // The local positions were sent, once; the phone's were not sent back.
        #expect(harness.ownActions() == [media(2): 1])
        _ = try await harness.sync()
        #expect(harness.ownActions() == [media(2): 1])

        // Now that nothing is pending here, the resume position's own time decides.
        harness.server.play(podcast: SampleFeed.url.absoluteString, episode: media(2), position: 900, total: 1800,
                            timestamp: Self.iso(now - 1800))
        #expect(try await harness.sync().positions.isEmpty)
        #expect(try await harness.store.position(for: .episode(two))?.position == 200, "an older action moved the position")
    }

    @Test("a 5xx or an unreachable server keeps the changes; the retry sends them once; backoff grows")
    func failuresKeepChanges() async throws {
        let harness = try await Harness()
        let one = try await harness.episode(1)
        try await harness.store.savePositions([
            ResumePositionUpdate(key: .episode(one), position: 42, duration: 1800, updated: Date()),
        ])
        harness.server.failNext([503])
        await #expect(throws: SyncError.status(503)) { try await harness.sync() }
        // The subscriptions went; the actions' POST fails.
        harness.server.failNextActionPosts([502])
        _ = try? await harness.sync()
        let failed = try #require(try await harness.store.syncStatus())
        #expect(failed.failures == 2)
        #expect(failed.nextAttempt.map { $0.timeIntervalSince(failed.lastSync!) } == 60)
        #expect(try await harness.store.pendingActions().count == 1)
        #expect(harness.ownActions().isEmpty)

        let report = try await harness.sync()
        #expect(report.sentActions == 1)
        #expect(harness.ownActions() == ["https://media.example.org/1.mp3": 1])
        #expect(try await harness.store.pendingActions().isEmpty)
        #expect(try await harness.store.syncStatus()?.failures == 0)
    }

    @Test("offline: a refused connection fails the sync as a network error and keeps every change")
    func offline() async throws {
        let harness = try await Harness(logIn: false)
        let refusing = try RefusingPort()
        try await harness.store.startSync(SyncAccount(server: URL(string: refusing.url(""))!, user: "alice",
                                                      device: "desktop", kind: .gpodder))
        try await harness.store.savePositions([
            ResumePositionUpdate(key: .episode(try await harness.episode(1)), position: 42, duration: 1800, updated: Date()),
        ])
        do {
            _ = try await harness.sync()
            Issue.record("a sync to a refused port succeeded")
        } catch let error as SyncError {
            guard case .network = error else { Issue.record("\(error)"); return }
            #expect(error.isTransient)
        }
        #expect(try await harness.store.pendingSubscriptionChanges().count == 1)
        #expect(try await harness.store.pendingActions().count == 1)
        #expect(try await harness.store.syncStatus()?.failures == 1)
    }

    @Test("a batch whose POST reached the server before a crash is not sent again")
    func interruptedBatch() async throws {
        let harness = try await Harness()
        let one = try await harness.episode(1)
        try await harness.store.savePositions([
            ResumePositionUpdate(key: .episode(one), position: 42, duration: 1800, updated: Date()),
        ])
        _ = try await harness.store.pendingSubscriptionChanges()
        let pending = try await harness.store.pendingActions()
        // What a crash leaves: the batch marked and delivered, the library never told.
        try await harness.store.markInFlight(pending)
        let status = try #require(try await harness.store.syncStatus())
        _ = try await GPodderAPI(account: status.account, password: "secret", client: harness.client)
            .sendActions(pending.map(\.action))
        #expect(harness.ownActions() == ["https://media.example.org/1.mp3": 1])
        let report = try await harness.sync()
        #expect(report.sentActions == 0)
        #expect(harness.ownActions() == ["https://media.example.org/1.mp3": 1])
        #expect(try await harness.store.pendingActions().isEmpty)
    }

    @Test("a position saved while its batch is on the way stays pending, with the newer position")
    func replacedWhileInFlight() async throws {
        let harness = try await Harness()
        let one = try await harness.episode(1)
        let two = try await harness.episode(2)
        let start = Date()
        try await harness.store.savePositions([
            ResumePositionUpdate(key: .episode(one), position: 42, duration: 1800, updated: start),
            ResumePositionUpdate(key: .episode(two), position: 7, duration: 1800, updated: start),
        ])
        let batch = try await harness.store.pendingActions()
        #expect(batch.count == 2)
        try await harness.store.markInFlight(batch)
        #expect(try await harness.store.pendingActions(interruptedOnly: true).count == 2)
        try await harness.store.savePositions([
            ResumePositionUpdate(key: .episode(one), position: 99, duration: 1800, updated: start + 5),
        ])
        try await harness.store.markSent(batch)
        let left = try await harness.store.pendingActions()
        #expect(left.map(\.action.position) == [99], "the newer position was dropped with the batch")
        #expect(try await harness.store.pendingActions(interruptedOnly: true).isEmpty)
    }

    @Test("an expired session logs in again; a changed password is unauthorized and keeps the changes")
    func authentication() async throws {
        let harness = try await Harness()
        _ = try await harness.sync()
        harness.server.forgetSessions()
        harness.server.subscribe(["https://phone.example.org/feed.xml"])
        #expect(try await harness.sync().receivedSubscriptionChanges == 1)
        harness.server.setPassword("changed")
        let show = try #require(try await harness.store.show(feedURL: SampleFeed.url))
        try await harness.store.unsubscribe(show.id)
        await #expect(throws: SyncError.unauthorized) { try await harness.sync() }
        #expect(try await harness.store.pendingSubscriptionChanges().count == 1)
        // The password entered again: the same account, so nothing pending is dropped or queued anew.
        _ = try await SyncLogin.logIn(server: URL(string: harness.server.url)!, user: "alice", password: "changed",
                                      device: "desktop", store: harness.store, client: harness.client)
        #expect(try await harness.store.pendingSubscriptionChanges().map(\.feedURL) == [SampleFeed.url.absoluteString])
        #expect(try await harness.synchronizer.sync(password: "changed").sentSubscriptionChanges == 1)
        #expect(harness.server.subscriptions == ["https://phone.example.org/feed.xml"])
    }

    @Test("update_urls rewrites the feed URL the server was sent")
    func updateURLs() async throws {
        let harness = try await Harness(logIn: false)
        harness.server.rewrite(SampleFeed.url.absoluteString, to: "https://canonical.example.org/show.xml")
        _ = try await SyncLogin.logIn(server: URL(string: harness.server.url)!, user: "alice", password: "secret",
                                      device: "desktop", store: harness.store, client: harness.client)
        _ = try await harness.sync()
        #expect(try await harness.store.show(harness.showID)?.feedURL.absoluteString == "https://canonical.example.org/show.xml")
        #expect(try await harness.store.pendingSubscriptionChanges().isEmpty, "the rewrite was queued to be sent back")
        #expect(harness.server.subscriptions == ["https://canonical.example.org/show.xml"])
    }

    @Test("malformed answers fail the sync with a reason, never a crash, and keep the changes")
    func malformedAnswers() async throws {
        let harness = try await Harness(logIn: false)
        let hostile = try TestHTTPServer()
        defer { hostile.stop() }
        let bodies = [#"{"add": "x", "remove": [], "timestamp": 1}"#, #"{"add": [], "remove": [], "timestamp": 1e300}"#,
                      #"{"add": [], "remove": [], "timestamp": -5}"#, "[1,2]", "not json", #"{"add":[],"remove":[]}"#]
        try await harness.store.startSync(SyncAccount(server: URL(string: hostile.url(""))!, user: "alice",
                                                      device: "desktop", kind: .nextcloud))
        for body in bodies {
            hostile.route("/index.php/apps/gpoddersync/subscriptions", .serve(Data(body.utf8), contentType: "application/json"))
            await #expect(throws: SyncError.self) { try await harness.sync() }
        }
        #expect(try await harness.store.pendingSubscriptionChanges().count == 1)
        // Actions that do not read as actions are skipped, the rest applied.
        let actions = #"""
            {"actions": [{"podcast": "https://feeds.example.org/show.xml", "episode": "https://media.example.org/1.mp3",
                          "action": "play", "timestamp": "2030-01-01T00:00:00", "position": 1e308, "total": 10},
                         {"podcast": "https://feeds.example.org/show.xml", "episode": "https://media.example.org/1.mp3",
                          "action": "play", "timestamp": "9999-99-99T99:99:99", "position": 5, "total": 10},
                         {"podcast": "https://feeds.example.org/show.xml", "episode": "https://media.example.org/2.mp3",
                          "action": "play", "timestamp": "2030-01-01T00:00:00", "position": 61, "total": 1800}],
             "timestamp": 7}
            """#
        hostile.route("/index.php/apps/gpoddersync/subscriptions", .serve(Data(#"{"add":[],"remove":[],"timestamp":3}"#.utf8), contentType: "application/json"))
        hostile.route("/index.php/apps/gpoddersync/subscription_change/create", .serve(Data(#"{"timestamp":4}"#.utf8), contentType: "application/json"))
        hostile.route("/index.php/apps/gpoddersync/episode_action", .serve(Data(actions.utf8), contentType: "application/json"))
        let report = try await harness.sync()
        #expect(report.positions.count == 1)
        #expect(try await harness.store.position(for: .episode(try await harness.episode(2)))?.position == 61)
        #expect(try await harness.store.position(for: .episode(try await harness.episode(1))) == nil)
    }

    @Test("the hand-written upload reads back as JSON with every field, however the strings are made")
    func uploadJSON() throws {
        let tricky = "a\"b\\c\nd\u{01}e ü 🎧 </script>"
        let actions = [
            EpisodeAction(podcast: "https://x.example/\(tricky)", episode: "https://m.example/1.mp3", guid: tricky, kind: .play,
                          timestamp: Date(timeIntervalSince1970: 1_700_000_000.7), started: 3, position: 61.9, total: 1800),
            EpisodeAction(podcast: "https://x.example/f", episode: "https://m.example/2.mp3", kind: .download,
                          timestamp: Date(timeIntervalSince1970: 1_700_000_001)),
            EpisodeAction(podcast: "https://x.example/f", episode: "https://m.example/3.mp3", kind: .play,
                          timestamp: Date(timeIntervalSince1970: 1_700_000_002), position: 10, total: nil),
        ]
        let data = EpisodeActionsJSON.encode(actions, device: "desk\"top")
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(list.count == 3)
        #expect(list[0]["podcast"] as? String == "https://x.example/\(tricky)")
        #expect(list[0]["guid"] as? String == tricky)
        #expect(list[0]["device"] as? String == "desk\"top")
        #expect(list[0]["timestamp"] as? String == "2023-11-14T22:13:20")
        #expect(list[0]["position"] as? Int == 61 && list[0]["total"] as? Int == 1800 && list[0]["started"] as? Int == 3)
        #expect(list[1]["action"] as? String == "download" && list[1]["position"] == nil && list[1]["guid"] == nil)
        #expect(list[2]["total"] == nil)
        #expect(list.compactMap { EpisodeAction(json: $0) }.count == 3)
    }

    @Test("timestamps: the API's form and the usual variants read; out of range or garbage refused")
    func timestamps() {
        #expect(SyncTimestamp.parse("2009-12-12T09:00:00")?.timeIntervalSince1970 == 1_260_608_400)
        #expect(SyncTimestamp.parse("2009-12-12T09:00:00Z")?.timeIntervalSince1970 == 1_260_608_400)
        #expect(SyncTimestamp.parse("2009-12-12T09:00:00.5")?.timeIntervalSince1970 == 1_260_608_400.5)
        for bad in ["", "2009-12-12", "1970-01-01T00:00:00", "2999-01-01T00:00:00", "2009-13-12T09:00:00",
                    "2009-12-12T09:00:00.e99", "99999999999999999999-01-01T00:00:00"] {
            #expect(SyncTimestamp.parse(bad) == nil, "\(bad)")
        }
        #expect(SyncTimestamp.format(Date(timeIntervalSince1970: 1_260_608_400.9)) == "2009-12-12T09:00:00")
        #expect(SyncTimestamp.parse("2023-02-29T00:00:00") == nil)
        // Written and read by arithmetic: checked against Foundation's calendar across the range.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for seconds in stride(from: SyncTimestamp.earliest, to: SyncTimestamp.latest, by: 86_400 * 37 + 3_721) {
            let date = Date(timeIntervalSince1970: seconds)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            #expect(SyncTimestamp.format(date) == expected)
            #expect(SyncTimestamp.parse(expected) == date)
        }
        #expect(SyncBackoff.delay(afterFailures: 1) == 30)
        #expect(SyncBackoff.delay(afterFailures: 100) == 3600)
    }
}
