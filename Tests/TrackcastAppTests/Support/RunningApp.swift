import Foundation
import TestSupport
import Testing

/// The real Trackcast window, started by a test under the test session's
/// display and D-Bus session bus, and driven as a user's script would: its
/// GActions activated over D-Bus (`org.gtk.Actions`), keys typed with
/// xdotool, MPRIS called with gdbus, its debug log (`G_MESSAGES_DEBUG`) read
/// back from its standard output. The app is single-instance, so one runs at
/// a time ("The running app" is serialized).
final class RunningApp: Sendable {
    static let executable = BuiltProducts.executable("trackcast")
    static let busName = "org.trackcast.Trackcast"
    static let mprisBusName = "org.mpris.MediaPlayer2.org.trackcast.Trackcast"

    let process: ChildProcess
    /// The app's own session bus when the test gave it one (`PrivateKeyring`), for the D-Bus calls to it.
    private let busEnvironment: [String: String?]

    /// What `launch` waits for before it returns.
    enum Readiness {
        /// The main window's first frame is painted.
        case windowShown
        /// That, and the library is open, so actions that read it act at once.
        case libraryReady
    }

    /// Starts the app on `library` and returns without waiting for anything.
    /// `environment` is added to the debug log and the silent, real-time sound
    /// output every app test uses (no test machine has a sound device).
    init(library: URL, arguments: [String] = [], environment: [String: String?] = [:]) throws {
        let base: [String: String?] = ["G_MESSAGES_DEBUG": "Trackcast", "TRACKCAST_AUDIO_SINK": "fakesink sync=true"]
        busEnvironment = environment["DBUS_SESSION_BUS_ADDRESS"].map { ["DBUS_SESSION_BUS_ADDRESS": $0] } ?? [:]
        process = try ChildProcess(Self.executable, arguments: ["--library", library.path] + arguments,
                                   environment: base.merging(environment) { $1 })
    }

    /// Starts the app and waits (up to 30 s) until it is `ready`.
    static func launch(library: URL, arguments: [String] = [], environment: [String: String?] = [:],
                       until ready: Readiness = .libraryReady) async throws -> RunningApp {
        let app = try RunningApp(library: library, arguments: arguments, environment: environment)
        let isReady = await app.waitFor(timeout: .seconds(30)) {
            let output = $0.standardOutput
            return output.contains("first frame painted") && (ready == .windowShown || output.contains("library ready"))
        }
        try #require(isReady, "the app was not \(ready) within 30 s: \(app.standardOutput) \(app.standardError)")
        return app
    }

    /// A library folder of its own under the temporary directory, not yet made.
    static func temporaryLibrary() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
    }

    var pid: Int32 { process.pid }
    var isRunning: Bool { process.isRunning }
    var standardOutput: String { process.standardOutput }
    var standardError: String { process.standardError }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    func waitFor(timeout: Duration, _ condition: @Sendable (RunningApp) -> Bool) async -> Bool {
        await process.waitFor(timeout: timeout) { _ in condition(self) }
    }

    /// Waits for `line` in what the app printed after `offset` (from the start without one).
    func waitForLine(_ line: String, after offset: String.Index? = nil, timeout: Duration = .seconds(20)) async -> Bool {
        await waitFor(timeout: timeout) {
            let output = $0.standardOutput
            return output[(offset ?? output.startIndex)...].contains(line)
        }
    }

    /// Waits for the process to end by itself, killing it after `timeout`.
    func finish(timeout: Duration = .seconds(30)) async -> ChildProcess.Result {
        await process.finish(timeout: timeout)
    }

    /// Quits through the app's own exported action, as a user's script could,
    /// and waits for the process to end.
    func quit() async throws -> ChildProcess.Result {
        _ = try await Self.activation("quit", environment: busEnvironment)
        // Generous: quitting writes the position first, on a machine that may be busy.
        return await process.finish(timeout: .seconds(30))
    }

    /// Runs `body`, then quits the app, also when `body` fails: a stray
    /// instance would own the bus name and turn every later launch into a
    /// hand-over. Returns how the app ended.
    func quitting(after body: (RunningApp) async throws -> Void) async throws -> ChildProcess.Result {
        do {
            try await body(self)
        } catch {
            _ = try? await quit()
            throw error
        }
        return try await quit()
    }

    /// Subscribes to the sample show through its action and waits (up to 20 s) for its page to list its three episodes.
    /// Activates `action` (`preferences`, `preferences-sync`) and waits until
    /// the Preferences window is on screen, for xdotool to type into.
    func openPreferences(_ action: String = "preferences") async throws {
        try await activate(action)
        let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
        var shown = false
        for _ in 0..<50 where !shown {
            let found = try await ChildProcess.run(xdotool, arguments: ["search", "--onlyvisible", "--name", "^Preferences$"])
            shown = !found.standardOutput.isEmpty
            if !shown { try await Task.sleep(for: .milliseconds(200)) }
        }
        try #require(shown, "the preferences window did not open")
        try await Task.sleep(for: .milliseconds(500))
    }

    func openSampleShow() async throws {
        try await activate("try-sample-show")
        let opened = await waitForLine("show page: 3 episodes")
        try #require(opened, "the sample show did not open: \(standardOutput)")
    }

    /// Subscribes to the sample show and plays its episode `episode` (1 Welcome, 2 Tips, 3 the video), waiting until it loads.
    func playSampleEpisode(_ episode: Int) async throws {
        try await openSampleShow()
        try await activate("play-episode", "[<int64 \(episode)>]")
        try #require(await waitForLine("playing file://"), "episode \(episode) did not play: \(standardOutput)")
    }

    /// The share of one core the app used over the next ten seconds, and how
    /// often a second it was switched in (woken).
    func usageOverTenSeconds() async throws -> (cpuShare: Double, wakeupsPerSecond: Double) {
        let before = try #require(ProcessUsage(pid: pid))
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(10))
        let after = try #require(ProcessUsage(pid: pid))
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return ((after.cpuSeconds - before.cpuSeconds) / elapsed, Double(after.contextSwitches(since: before)) / elapsed)
    }

    // MARK: Its debug log

    /// The numbers the log printed right after `prefix` ("position: 12.5 s"
    /// gives 12.5 for "position: "), in order.
    static func loggedValues(_ prefix: String, in log: some StringProtocol) -> [Double] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: prefix) else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }
    }

    /// When the app first logged a line containing `text`, in seconds of the
    /// monotonic clock; nil unless it was started with TRACKCAST_LOG_MICROSECONDS,
    /// which stamps each debug line ("@81234567 playback: playing").
    func loggedTime(ofFirst text: String) -> Double? {
        guard let line = standardOutput.split(separator: "\n").first(where: { $0.contains(text) }),
              let match = line.firstMatch(of: #/: @(\d+) /#), let microseconds = Double(match.1) else { return nil }
        return microseconds / 1e6
    }

    /// The play head positions the app logged after `offset` (from the start without one).
    func positions(after offset: String.Index? = nil) -> [Double] {
        let output = standardOutput
        return Self.loggedValues("position: ", in: output[(offset ?? output.startIndex)...])
    }

    // MARK: D-Bus

    /// Activates one of the app's actions and expects the call to succeed.
    func activate(_ action: String, _ parameter: String = "[]") async throws {
        let result = try await Self.activation(action, parameter, environment: busEnvironment)
        #expect(result.status == 0, "activating \(action): \(result.standardError)")
    }

    /// Activates an action of whichever Trackcast owns the bus name, if one does.
    static func activation(_ action: String, _ parameter: String = "[]",
                           environment: [String: String?] = [:]) async throws -> ChildProcess.Result {
        try await gdbusCall(busName, "/org/trackcast/Trackcast", "org.gtk.Actions.Activate", [action, parameter, "{}"],
                            environment: environment)
    }

    /// Calls `method` of the app's MPRIS player (`org.mpris.MediaPlayer2…`) by its
    /// exact bus name, not playerctl's "-p org.trackcast.Trackcast", which also
    /// matches other Trackcast instances (the MPRIS tests' own players).
    func mpris(_ method: String, _ arguments: String...) async throws -> ChildProcess.Result {
        try await Self.gdbusCall(Self.mprisBusName, "/org/mpris/MediaPlayer2", method, arguments)
    }

    /// A property of the MPRIS player interface, as gdbus prints it.
    func mprisPlayerProperty(_ name: String) async throws -> String {
        try await mpris("org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", name).standardOutput
    }

    static func gdbusCall(_ destination: String, _ objectPath: String, _ method: String,
                          _ arguments: String...) async throws -> ChildProcess.Result {
        try await gdbusCall(destination, objectPath, method, arguments)
    }

    static func gdbusCall(_ destination: String, _ objectPath: String, _ method: String,
                          _ arguments: [String], environment: [String: String?] = [:]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", destination, "--object-path", objectPath, "--method", method,
        ] + arguments, environment: environment)
    }

    // MARK: The X display

    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")

    /// Types `keys` (xdotool key names) into the main window, as a person
    /// would. Under a window manager the window must be activated through it
    /// (`raising`); on bare Xvfb giving it the focus is enough.
    func type(_ keys: String..., raising: Bool = false) async throws {
        // Visible only: the name matches GTK's hidden 1×1 client leader window too ("trackcast"), which takes no focus.
        let found = try await ChildProcess.run(Self.xdotool, arguments: ["search", "--onlyvisible", "--name", "^Trackcast$"])
        let window = try #require(found.standardOutput.split(separator: "\n").first.map(String.init),
                                  "no Trackcast window: \(found.standardError)")
        _ = try await ChildProcess.run(Self.xdotool, arguments: [raising ? "windowactivate" : "windowfocus", "--sync", window])
        _ = try await ChildProcess.run(Self.xdotool, arguments: ["key", "--delay", "50"] + keys)
    }

    /// How many Trackcast main windows are mapped.
    func visibleWindows() async throws -> Int {
        let found = try await ChildProcess.run(Self.xdotool, arguments: ["search", "--onlyvisible", "--name", "^Trackcast$"])
        return found.standardOutput.split(separator: "\n").count
    }

    /// Saves the whole X screen as a PNG, for a person to look at.
    static func saveScreenshot(to file: URL) async throws {
        _ = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/import"), arguments: ["-window", "root", file.path])
    }

    /// The whole X screen's pixels, with a PNG copy kept beside them.
    static func screenshot() async throws -> Screenshot {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-shot-\(UUID())")
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/import"),
                                                arguments: ["-window", "root", "-depth", "8", "rgb:\(file.path).rgb"])
        try #require(result.status == 0, "import failed: \(result.standardError)")
        try await saveScreenshot(to: URL(fileURLWithPath: "\(file.path).png"))
        let info = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdpyinfo"))
        let dimensions = try #require(info.standardOutput.split(separator: "\n").first { $0.contains("dimensions:") })
        let size = try #require(dimensions.split(separator: " ").first { $0.contains("x") && $0.first!.isNumber })
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(file.path).rgb")))
        try #require(parts.count == 2 && bytes.count == parts[0] * parts[1] * 3, "screenshot of \(bytes.count) bytes")
        print("screenshot: \(file.path).png")
        return Screenshot(width: parts[0], height: parts[1], rgb: bytes)
    }

    struct Screenshot {
        let width: Int
        let height: Int
        let rgb: [UInt8]

        /// Pixels within `tolerance` of `colour` on every channel: their
        /// count, bounding box and mean x.
        func find(_ colour: (Int, Int, Int), tolerance: Int = 40)
            -> (count: Int, minX: Int, maxX: Int, minY: Int, maxY: Int, meanX: Double) {
            var (count, minX, maxX, minY, maxY, sumX) = (0, Int.max, -1, Int.max, -1, 0)
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    guard abs(Int(rgb[i]) - colour.0) <= tolerance, abs(Int(rgb[i + 1]) - colour.1) <= tolerance,
                          abs(Int(rgb[i + 2]) - colour.2) <= tolerance else { continue }
                    count += 1
                    sumX += x
                    (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                }
            }
            return (count, minX, maxX, minY, maxY, count > 0 ? Double(sumX) / Double(count) : -1)
        }
    }
}
