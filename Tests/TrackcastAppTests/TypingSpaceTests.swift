import Foundation
import TestSupport
import Testing

/// Space plays and pauses, except where text is typed: a space typed into
/// an entry must land in the entry and leave playback alone. Typed for real
/// with xdotool while an episode plays. (Discover's search, which is in the
/// main window, is checked in `discoverSubscribes`; Space on the list
/// pausing in `keyboardAndBackgroundPlayback`. This one passed with Space as
/// an application accelerator too, which does not reach dialogs: it guards
/// the dialog against a window-wide Space to come.)
extension RunningAppTests {
    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")

    /// The app's mapped windows other than `mainWindow`, newest last.
    private static func otherWindows(of pid: Int32, than mainWindow: String) async throws -> [String] {
        let found = try await ChildProcess.run(xdotool, arguments: ["search", "--onlyvisible", "--pid", "\(pid)", ""])
        return found.standardOutput.split(separator: "\n").map(String.init).filter { $0 != mainWindow }
    }

    @Test("a space typed into the add-podcast dialog's address goes into the address; playback goes on")
    func spaceTypesIntoDialogEntry() async throws {
        let library = RunningApp.temporaryLibrary()
        let feeds = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-space-\(UUID())")
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: feeds)
        }
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        // A local feed whose file name has a space: subscribing to it works
        // only if the space was typed into the address.
        let feed = feeds.appendingPathComponent("my show.xml")
        try PodcastFeedWriter(title: "Spaced Out", episodes: 1).data().write(to: feed)

        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            try await app.activate("play-episode", "[<int64 1>]")
            let moving = await app.waitFor(timeout: .seconds(20)) { !$0.positions().isEmpty }
            try #require(moving, "the episode did not play: \(app.standardOutput)")

            let main = try await ChildProcess.run(Self.xdotool, arguments: ["search", "--onlyvisible", "--name", "^Trackcast$"])
            let mainWindow = try #require(main.standardOutput.split(separator: "\n").first.map(String.init))
            try await app.activate("add-podcast")
            var dialog: String?
            for _ in 0..<100 where dialog == nil {
                dialog = try await Self.otherWindows(of: app.pid, than: mainWindow).last
                if dialog == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let dialogWindow = try #require(dialog, "the add-podcast dialog did not open")
            let beforeTyping = app.standardOutput.endIndex
            _ = try await ChildProcess.run(Self.xdotool, arguments: ["mousemove", "--window", dialogWindow, "20", "20"])
            _ = try await ChildProcess.run(Self.xdotool, arguments: ["windowfocus", "--sync", dialogWindow])
            // The address entry has the focus when the dialog opens.
            _ = try await ChildProcess.run(Self.xdotool, arguments: ["type", "--delay", "20", feed.path])
            _ = try await ChildProcess.run(Self.xdotool, arguments: ["key", "Return"])
            let subscribed = await app.waitForLine("showing show 2: Spaced Out", after: beforeTyping)
            #expect(subscribed, "the typed address lost its space: \(app.standardOutput[beforeTyping...])")
            #expect(!app.standardOutput[beforeTyping...].contains("playback: paused"),
                    "Space paused playback instead: \(app.standardOutput[beforeTyping...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
