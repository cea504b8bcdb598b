import Foundation
import TestSupport
import Testing

/// The window at 360 pixels wide, a phone's width: xdotool resizes it (no
/// window manager, so the X server does as asked unless GTK's minimum size
/// is wider, when GTK makes the window wider again). Screenshots of the library, the
/// show page, the episode page and the player bar are kept for a person to
/// look at: /tmp/trackcast-360-*.png. Text is laid out in DejaVu Sans alone,
/// so the widths are the same on every machine.
extension RunningAppTests {
    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")

    /// Without a window manager (or compositor) GTK draws its own frame
    /// around the window: 4 pixels of resize border and a 1-pixel edge a
    /// side, read off these tests' screenshots. Only what is inside counts.
    private static let frame = 5

    /// The window's width as the X server has it, without GTK's frame.
    private static func width(of window: String) async throws -> Int? {
        let geometry = try await ChildProcess.run(xdotool, arguments: ["getwindowgeometry", window])
        let line = geometry.standardOutput.split(separator: "\n").first { $0.contains("Geometry:") }
        let size: Substring? = line?.split(separator: " ").last
        guard let widthText = size?.split(separator: "x").first, let width = Int(widthText) else { return nil }
        return width - 2 * frame
    }

    /// The window's width once it has held still for a second (five readings
    /// a quarter of a second apart): GTK widens a window narrower than its
    /// content's minimum once it has laid it out, which a busy machine may take
    /// a while to do. Nil if it never settles within 15 s.
    private static func settledWidth(of window: String) async throws -> Int? {
        var readings: [Int] = []
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let width = try await width(of: window) { readings.append(width) }
            if readings.count >= 5, Set(readings.suffix(5)).count == 1 { return readings.last }
            try await Task.sleep(for: .milliseconds(250))
        }
        return nil
    }

    private static func keepScreenshot(_ name: String) async throws {
        try await Task.sleep(for: .milliseconds(700))
        try await RunningApp.saveScreenshot(
            to: FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-360-\(name).png"))
    }

    @Test("at 360 pixels wide the library, show page and player bar fit: the window takes the width",
          .enabled(if: MachineCapabilities.hasDejaVuSans,
                   "needs DejaVu Sans (fonts-dejavu-core, which meson-helpers/deps installs): the widths are measured in it"))
    func narrowWindow() async throws {
        let library = RunningApp.temporaryLibrary()
        let fonts = try FontConfiguration.dejaVuOnly()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: fonts.deletingLastPathComponent())
        }
        let app = try await RunningApp.launch(library: library,
                                              environment: ["LANGUAGE": "en", "FONTCONFIG_FILE": fonts.path])
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitFor(timeout: .seconds(20)) { !$0.positions().isEmpty })
            try await app.activate("play-pause")
            try #require(await app.waitForLine("playback: paused"))

            let found = try await ChildProcess.run(Self.xdotool, arguments: ["search", "--onlyvisible", "--name", "^Trackcast$"])
            let window = try #require(found.standardOutput.split(separator: "\n").first.map(String.init))
            let resized = try await ChildProcess.run(Self.xdotool, arguments: ["windowsize", "--sync", window, "\(360 + 2 * Self.frame)", "640"])
            #expect(resized.status == 0, "xdotool: \(resized.standardError)")
            let width = try #require(try await Self.settledWidth(of: window), "the window's width did not settle")
            #expect(width <= 360, "the show page with the player bar needs \(width) pixels")
            try await Self.keepScreenshot("show-page")

            try await app.activate("show-library")
            try await Self.keepScreenshot("library")
            let narrowWidth = try #require(try await Self.settledWidth(of: window), "the window's width did not settle")
            #expect(narrowWidth <= 360, "the library with the player bar needs \(narrowWidth) pixels")
            try await app.activate("open-episode", "[<int64 1>]")
            try await Self.keepScreenshot("episode")
            let episodeWidth = try #require(try await Self.settledWidth(of: window), "the window's width did not settle")
            #expect(episodeWidth <= 360, "the episode page needs \(episodeWidth) pixels")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
