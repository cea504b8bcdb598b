import Foundation
import Testing
import TestSupport

/// `trackcast sync-login`, `sync` and `sync-logout` of the real binary,
/// against the loopback gpodder.net server and a real GNOME Keyring on a
/// session bus of the test's own; the test is the other device.
@Suite("Sync commands", .needs("sqlite3"))
struct SyncCLITests {
    static let password = "hunter2-sync-pw"

    final class Setup {
        let keyring: PrivateKeyring
        let server: GPodderTestServer
        let feeds: TestHTTPServer
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-sync-\(UUID().uuidString)")

        init(kind: GPodderTestServer.Kind = .gpodder) async throws {
            keyring = try await PrivateKeyring(.unlocked)
            server = try GPodderTestServer(kind: kind, password: SyncCLITests.password)
            feeds = try LibraryCommandTests.feedServer([
                "/desk.xml": PodcastFeedWriter(title: "Desk Show", episodes: 3),
                "/phone.xml": PodcastFeedWriter(title: "Phone Show", episodes: 2),
            ])
        }

        deinit {
            server.stop()
            feeds.stop()
            keyring.stop()
            try? FileManager.default.removeItem(at: library)
        }

        func start(_ arguments: [String], input: String? = nil, environment extra: [String: String?] = [:]) throws -> ChildProcess {
            let environment = keyring.environment.merging(["LANGUAGE": "C", "LC_ALL": "C.UTF-8", "DISPLAY": nil,
                                                           "WAYLAND_DISPLAY": nil]) { $1 }.merging(extra) { $1 }
            return try ChildProcess(BuiltProducts.executable("trackcast"), arguments: ["--library", library.path] + arguments,
                                    environment: environment, input: input.map { Data($0.utf8) })
        }

        func run(_ arguments: [String], input: String? = nil,
                 environment: [String: String?] = [:]) async throws -> ChildProcess.Result {
            try await start(arguments, input: input, environment: environment).finish(timeout: .seconds(60))
        }

        func sql(_ statement: String) async throws {
            let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                                    arguments: [library.appendingPathComponent("library.sqlite3").path, statement])
            #expect(result.status == 0, "\(result.standardError)")
        }

        /// Every file under `folder` that holds `text`.
        func files(in folder: URL, holding text: String) -> [String] {
            let needle = Data(text.utf8)
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var found: [String] = []
            while let file = enumerator?.nextObject() as? URL {
                if let data = try? Data(contentsOf: file), data.range(of: needle) != nil { found.append(file.path) }
            }
            return found
        }
    }

    @Test("login keeps the password in the keyring only; sync follows the phone; a killed sync sends nothing twice; 401 and logout")
    func syncCommands() async throws {
        let setup = try await Setup()
        #expect(try await setup.run(["subscribe", setup.feeds.url("/desk.xml")]).status == 0)

        let refused = try await setup.run(["sync-login", setup.server.url, "alice", "--device", "desktop"], input: "wrong\n")
        #expect(refused.status == 1)
        #expect(refused.standardError == "trackcast: sync login failed: the server refused the user name or password\n")
        let login = try await setup.run(["sync-login", setup.server.url, "alice", "--device", "desktop"],
                                        input: Self.password + "\n")
        #expect(login.status == 0, "\(login.standardError)")
        #expect(login.standardOutput == "Logged in to \(setup.server.url) as alice (device desktop).\n")
        #expect(try await setup.keyring.lookup("sync-password") == Self.password)
        #expect(setup.server.devices.keys.sorted() == ["desktop"])

        setup.server.subscribe([setup.feeds.url("/phone.xml")])
        let first = try await setup.run(["sync"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput
                == "sync: sent 1 subscription changes and 0 actions, received 1 subscription changes and 0 positions\n")
        #expect(setup.server.subscriptions == [setup.feeds.url("/desk.xml"), setup.feeds.url("/phone.xml")])
        let shows = try await setup.run(["shows"])
        #expect(shows.standardOutput.contains("Phone Show"), "the phone's show was not fetched: \(shows.standardOutput)")

        // Killed while the server holds its answer to the actions it already stored.
        try await setup.sql("UPDATE episodes SET played = 1 WHERE id = (SELECT min(id) FROM episodes)")
        setup.server.holdActionsAnswer(true)
        let killed = try setup.start(["sync"])
        let server = setup.server
        #expect(await killed.waitFor(timeout: .seconds(30)) { _ in server.actions.contains { $0.device == "desktop" } })
        kill(killed.pid, SIGKILL)
        _ = await killed.finish()
        setup.server.holdActionsAnswer(false)
        let after = try await setup.run(["sync"])
        #expect(after.status == 0, "\(after.standardError)")
        #expect(after.standardOutput
                == "sync: sent 0 subscription changes and 0 actions, received 0 subscription changes and 0 positions\n")
        #expect(setup.server.actions.filter { $0.device == "desktop" }.count == 1)

        setup.server.setPassword("changed-elsewhere")
        let unauthorized = try await setup.run(["sync"])
        #expect(unauthorized.status == 1)
        #expect(unauthorized.standardError == "trackcast: sync failed: the server refused the user name or password\n")

        #expect(setup.files(in: setup.library, holding: Self.password).isEmpty)
        #expect(setup.files(in: setup.keyring.folder.appendingPathComponent("config"), holding: Self.password).isEmpty)

        // No Secret Service on the bus: said so, not taken for a missing password.
        let noKeyring = try await setup.run(["sync"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
        #expect(noKeyring.status == 1)
        #expect(noKeyring.standardError.hasPrefix("trackcast: sync failed: the keyring cannot be reached"), "\(noKeyring.standardError)")

        let logout = try await setup.run(["sync-logout"])
        #expect(logout.status == 0)
        #expect(try await setup.keyring.lookup("sync-password") == nil)
        let notLoggedIn = try await setup.run(["sync"])
        #expect(notLoggedIn.status == 1)
        #expect(notLoggedIn.standardError.hasPrefix("trackcast: sync failed: not logged in"))
        #expect(try await setup.run(["shows"]).standardOutput.contains("Desk Show"), "logout touched the library")
    }

    @Test("against Nextcloud's GPodder Sync: login without devices, both directions, and the phone's position")
    func nextcloud() async throws {
        let setup = try await Setup(kind: .nextcloud)
        #expect(try await setup.run(["subscribe", setup.feeds.url("/desk.xml")]).status == 0)
        let login = try await setup.run(["sync-login", setup.server.url, "alice"], input: Self.password + "\n")
        #expect(login.status == 0, "\(login.standardError)")
        #expect(setup.server.devices.isEmpty)
        setup.server.subscribe([setup.feeds.url("/phone.xml")])
        let desk = PodcastFeedWriter(title: "Desk Show", episodes: 3)
        setup.server.play(podcast: setup.feeds.url("/desk.xml"), episode: "\(desk.mediaBase)/\(desk.slug)/2.mp3",
                          position: 600, total: 1800, timestamp: "2030-01-01T00:00:00", device: "phone")
        let sync = try await setup.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardOutput
                == "sync: sent 1 subscription changes and 0 actions, received 1 subscription changes and 1 positions\n")
        #expect(setup.server.subscriptions == [setup.feeds.url("/desk.xml"), setup.feeds.url("/phone.xml")])
        let episodes = try await setup.run(["episodes", "Desk"])
        let states = episodes.standardOutput.split(separator: "\n").map { $0.split(separator: "\t")[2] }
        #expect(states.filter { $0.contains("in-progress") }.count == 1, "\(episodes.standardOutput)")
    }
}
