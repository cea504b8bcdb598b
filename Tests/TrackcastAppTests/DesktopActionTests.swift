import Foundation
import TestSupport
import Testing

/// The desktop file's "Add Podcast" action, reached the two ways a desktop
/// reaches it: a launcher that runs the action's Exec line (read from the
/// desktop file itself), and GNOME Shell, which for a DBusActivatable app
/// calls `org.freedesktop.Application.ActivateAction` instead. Either way the
/// add-podcast dialog must open, seen from outside as the app's window named
/// "Add Podcast".
extension RunningAppTests {
    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
    private static let desktopFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/org.trackcast.Trackcast.desktop.in")

    /// The arguments after `trackcast` on the Exec line of the desktop action `action`.
    private static func execArguments(ofAction action: String) throws -> [String] {
        let lines = try String(contentsOf: desktopFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let section = try #require(lines.firstIndex(of: "[Desktop Action \(action)]"), "no action \(action) in the desktop file")
        let exec = try #require(lines[(section + 1)...].prefix { !$0.hasPrefix("[") }.first { $0.hasPrefix("Exec=") })
        let words = exec.dropFirst("Exec=".count).split(separator: " ").map(String.init)
        try #require(words.first == "trackcast", "the action runs \(exec), not trackcast")
        return Array(words.dropFirst())
    }

    /// How many add-podcast dialogs the app shows (their X windows are named
    /// after the heading), waiting up to 10 s for there to be `count`.
    private static func dialogs(of pid: Int32, becoming count: Int) async throws -> Int {
        var found = 0
        for _ in 0..<100 {
            let search = try await ChildProcess.run(xdotool, arguments: ["search", "--all", "--onlyvisible", "--pid", "\(pid)",
                                                                         "--name", "^Add Podcast$"])
            found = search.standardOutput.split(separator: "\n").count
            if found == count { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return found
    }

    @Test("the desktop file's Add Podcast opens the dialog: its Exec line at start and while running, and ActivateAction over D-Bus")
    func desktopAddPodcastAction() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let arguments = try Self.execArguments(ofAction: "add-podcast")

        let app = try await RunningApp.launch(library: library, arguments: arguments, until: .windowShown)
        let result = try await app.quitting { app in
            #expect(try await Self.dialogs(of: app.pid, becoming: 1) == 1, "starting with \(arguments) opened no dialog")

            // A second launch of the Exec line hands the action to the running app and ends.
            let second = try await ChildProcess.run(RunningApp.executable, arguments: ["--library", library.path] + arguments,
                                                    timeout: .seconds(30))
            #expect(second.status == 0 && !second.timedOut && second.standardError.isEmpty,
                    "the second launch: \(second.standardError)")
            #expect(try await Self.dialogs(of: app.pid, becoming: 2) == 2, "the running app opened no dialog for a second launch")

            // What GNOME Shell does for a DBusActivatable app's action.
            let shell = try await RunningApp.gdbusCall(RunningApp.busName, "/org/trackcast/Trackcast",
                                                       "org.freedesktop.Application.ActivateAction", "add-podcast", "[]", "{}")
            #expect(shell.status == 0, "ActivateAction: \(shell.standardError)")
            #expect(try await Self.dialogs(of: app.pid, becoming: 3) == 3, "ActivateAction opened no dialog")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
