import Foundation
import Testing
import TestSupport

/// GNOME Shell's search provider as Shell uses it: a session bus of the
/// test's own that D-Bus-activates Trackcast from a service file (as the
/// installed `org.trackcast.Trackcast.service` does), and gdbus calls with
/// the arguments Shell sends. The library was subscribed through the CLI
/// to the feed `SearchCLITests` serves.
@Suite("GNOME Shell search provider", .serialized, .needs("dbus-daemon", "gdbus"))
struct ShellSearchProviderTests {
    static let provider = ["org.trackcast.Trackcast", "/org/trackcast/Trackcast/SearchProvider"]
    static let interface = "org.gnome.Shell.SearchProvider2"

    /// A dbus-daemon whose only service is Trackcast on `library`, its output into `log`.
    final class ActivatingBus: Sendable {
        let folder: URL
        let address: String
        let log: URL
        private let daemon: ChildProcess

        init(library: URL) async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-shell-\(UUID().uuidString)")
            let services = folder.appendingPathComponent("services")
            try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
            log = folder.appendingPathComponent("app.log")
            let socket = folder.appendingPathComponent("bus").path
            address = "unix:path=\(socket)"
            let trackcast = BuiltProducts.executable("trackcast").path
            try Data("""
                [D-BUS Service]
                Name=org.trackcast.Trackcast
                Exec=/bin/sh -c 'exec "\(trackcast)" --library "\(library.path)" --gapplication-service >"\(log.path)" 2>&1'
                """.utf8).write(to: services.appendingPathComponent("org.trackcast.Trackcast.service"))
            let configuration = folder.appendingPathComponent("bus.conf")
            try Data("""
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>session</type>
                  <listen>\(address)</listen>
                  <auth>EXTERNAL</auth>
                  <servicedir>\(services.path)</servicedir>
                  <policy context="default">
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                  </policy>
                </busconfig>
                """.utf8).write(to: configuration)
            // What the activated app inherits: the debug log, and no sound device.
            daemon = try ChildProcess(URL(fileURLWithPath: "/usr/bin/dbus-daemon"),
                                      arguments: ["--config-file=\(configuration.path)", "--nofork"],
                                      environment: ["G_MESSAGES_DEBUG": "Trackcast", "TRACKCAST_AUDIO_SINK": "fakesink sync=true",
                                                    "GSETTINGS_BACKEND": "memory", "LANGUAGE": "C", "LC_ALL": "C.UTF-8"])
            guard await daemon.waitFor(timeout: .seconds(10), { _ in FileManager.default.fileExists(atPath: socket) }) else {
                daemon.terminate()
                throw CLIError("dbus-daemon did not listen: \(daemon.standardError)")
            }
        }

        deinit {
            // The app exits when its bus goes away.
            daemon.terminate()
            _ = daemon.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }

        var appLog: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        func call(_ method: String, _ arguments: String...) async throws -> ChildProcess.Result {
            try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
                "call", "--session", "--dest", provider[0], "--object-path", provider[1],
                "--method", "\(interface).\(method)",
            ] + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        }

        func waitForLog(_ text: String) async -> Bool {
            await daemon.waitFor(timeout: .seconds(20)) { _ in self.appLog.contains(text) }
        }
    }

    @Test("the installed .ini names the object and interface version the app serves")
    func iniFile() throws {
        let ini = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/org.trackcast.Trackcast.search-provider.ini.in"),
                             encoding: .utf8)
        let lines = Set(ini.split(separator: "\n").map(String.init))
        #expect(lines.isSuperset(of: ["[Shell Search Provider]", "DesktopId=@APP_ID@.desktop", "BusName=@APP_ID@",
                                      "ObjectPath=\(Self.provider[1])", "Version=2"]))
    }

    @Test("results from a cold D-Bus activation, without GStreamer or the window; metas; activation opens the episode at the cue")
    func shellAsks() async throws {
        let server = try TestHTTPServer()
        server.route("/kitchen.xml", .document(SearchCLITests.feed(), contentType: "application/rss+xml"))
        server.route("/sample.vtt", .serve(try Data(contentsOf: SearchCLITests.transcript), contentType: "text/vtt"))
        let cli = try LibraryCLI()
        try #require(try await cli.run(["subscribe", server.url("/kitchen.xml")]).status == 0)
        let bus = try await ActivatingBus(library: cli.library)

        let initial = try await bus.call("GetInitialResultSet", "['cafes']")
        #expect(initial.status == 0, "\(initial.standardError) \(bus.appLog)")
        #expect(initial.standardOutput == "(['3', '2@transcript@70.25'],)\n", "the title first, then the cue")
        let narrower = try await bus.call("GetSubsearchResultSet", "['3', '2@transcript@70.25']", "['cafes', 'sle']")
        #expect(narrower.standardOutput == "(['2@transcript@70.25'],)\n")

        let metas = try await bus.call("GetResultMetas", "['3', '2@transcript@70.25']")
        #expect(metas.standardOutput.contains("'name': <'Cafés of the world'>"), "\(metas.standardOutput)")
        #expect(metas.standardOutput.contains("'name': <'Tea and biscuits'>"))
        #expect(metas.standardOutput.contains("'description': <'Kitchen Radio'>"))
        #expect(metas.standardOutput.contains("'gicon': <'org.trackcast.Trackcast'>"), "no artwork cached: the app's icon")

        for hostile in ["['\"']", "['NEAR(']", "['*', '-', ':']"] {
            let answer = try await bus.call("GetInitialResultSet", hostile)
            #expect(answer.status == 0 && answer.standardOutput == "(@as [],)\n", "\(hostile): \(answer.standardOutput) \(answer.standardError)")
        }

        let log = bus.appLog
        #expect(log.contains("search provider: GetInitialResultSet"))
        #expect(!log.contains("gstreamer: initialised"), "answering started GStreamer: \(log)")
        #expect(!log.contains("main window: building"), "answering built the window")

        let activated = try await bus.call("ActivateResult", "'2@transcript@70.25'", "['cafes']", "0")
        #expect(activated.status == 0, "\(activated.standardError)")
        #expect(await bus.waitForLog("episode page: offers play from 1:10 in transcript"), "\(bus.appLog)")
        #expect(await bus.waitForLog("episode page: episode 2 Tea and biscuits"))

        let bad = try await bus.call("ActivateResult", "'2@nowhere@x'", "['cafes']", "0")
        #expect(bad.status != 0 && bad.standardError.contains("InvalidArgs"))
        // A time no episode has, from whoever is on the bus.
        let far = try await bus.call("ActivateResult", "'2@transcript@1e300'", "['cafes']", "0")
        #expect(far.status != 0 && far.standardError.contains("InvalidArgs"), "\(far.standardError)")

        #expect(try await cli.run(["unsubscribe", "1"]).status == 0)
        let afterUnsubscribe = try await bus.call("GetInitialResultSet", "['cafes']")
        #expect(afterUnsubscribe.standardOutput == "(@as [],)\n")
    }
}
