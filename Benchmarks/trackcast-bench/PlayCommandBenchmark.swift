import Bindings
import Foundation
import TestSupport

/// A play command through the running app, from a media key's path against
/// the window's own: MPRIS `Play` from a client that keeps its bus
/// connection open, as GNOME Shell does, and Space typed into the window
/// (xdotool), each from a pause. Both reach the one owner of what plays; the
/// question is whether the MPRIS path costs more on the way. Measured from
/// the command's arrival in the app (its `mpris: Play` or `space: play-pause`
/// line) to the player bar showing Pause, so the clients' own start-up is
/// left out; and from sending it to the first position tick at least 0.1 s
/// past the pause, which is what a person sees move. Times come from the
/// app's debug log (its monotonic clock, to the microsecond, with
/// TRACKCAST_LOG_MICROSECONDS), so polling the log adds nothing; medians, so
/// that a run the machine's other work fell on does not move the figure.
@MainActor
struct PlayCommandBenchmark {
    let trackcast: URL
    var runs = 31

    func run() async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-play-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tone = folder.appendingPathComponent("tone.opus")
        try PlaybackBenchmark.makeTone(at: tone, encoder: ["opusenc", "!", "oggmux"], seconds: 600)
        let app = try ChildProcess(trackcast, arguments: ["--library", folder.appendingPathComponent("library").path, tone.path],
                                   environment: ["G_MESSAGES_DEBUG": "Trackcast", "TRACKCAST_AUDIO_SINK": "fakesink sync=true",
                                                 "GSETTINGS_BACKEND": "memory",
                                                 "TRACKCAST_LOG_MICROSECONDS": "1"])
        defer { app.terminate() }
        guard await app.waitFor(timeout: .seconds(30), { $0.standardOutput.contains("position: ") }) else {
            throw BenchFailure("the app never played: \(app.standardError)")
        }
        try await focusWindow()
        let shell = try BusClient()

        var fromMPRIS: [(shown: Double, moving: Double)] = []
        var fromWindow: [(shown: Double, moving: Double)] = []
        // Alternating, so the machine's load falls on both; the first pair warms up.
        for run in 0...runs {
            let mpris = try await timePlay(app, shell, arrival: "mpris: Play") { try Self.mpris("Play", shell) }
            let window = try await timePlay(app, shell, arrival: "space: play-pause") { try await Self.tool("xdotool", "key", "space") }
            if run > 0 {
                fromMPRIS.append(mpris)
                fromWindow.append(window)
            }
        }
        return [
            BenchRow(measured: "play command's arrival to the bar showing Pause, from MPRIS (median of \(runs))", unit: "ms",
                     trackcast: Self.median(fromMPRIS.map(\.shown)), peerName: "the same, Space in the window",
                     peer: Self.median(fromWindow.map(\.shown))),
            BenchRow(measured: "play command sent to the clock moving, from MPRIS (median of \(runs))", unit: "ms",
                     trackcast: Self.median(fromMPRIS.map(\.moving)), peerName: "the same, Space in the window",
                     peer: Self.median(fromWindow.map(\.moving))),
        ]
    }

    /// Pauses over MPRIS, then times `send` from its start to the bar
    /// showing Pause, and to the first tick past where it paused (ms).
    private func timePlay(_ app: ChildProcess, _ shell: BusClient, arrival: String,
                          _ send: () async throws -> Void) async throws -> (shown: Double, moving: Double) {
        let pauseMark = app.standardOutput.endIndex
        try Self.mpris("Pause", shell)
        var pausedAt: Double?
        try await Self.poll { pausedAt = Self.lines(app, after: pauseMark).compactMap { Self.value(after: "paused at ", in: $0) }.last
                              return pausedAt != nil }
        guard let pausedAt else { throw BenchFailure("the app never paused") }
        // Past the pause's own reports.
        try await Task.sleep(for: .milliseconds(300))
        let mark = app.standardOutput.endIndex
        let sent = Self.monotonicNow()
        try await send()
        var arrived: Double?
        var shown: Double?
        var moving: Double?
        try await Self.poll {
            for line in Self.lines(app, after: mark) {
                if arrived == nil, line.contains(arrival) { arrived = Self.loggedTime(line) }
                if shown == nil, line.contains("player bar: "), line.contains(" | Pause | ") { shown = Self.loggedTime(line) }
                if moving == nil, let position = Self.value(after: "position: ", in: line), position >= pausedAt + 0.1 {
                    moving = Self.loggedTime(line)
                }
            }
            return arrived != nil && shown != nil && moving != nil
        }
        guard let arrived, let shown, let moving else { throw BenchFailure("the app did not play again: \(app.standardError)") }
        return ((shown - arrived) * 1000, (moving - sent) * 1000)
    }

    /// Gives the main window the keyboard, as a click on it would.
    private func focusWindow() async throws {
        let found = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"), arguments: ["search", "--onlyvisible", "--name", "^Trackcast$"])
        guard let window = found.standardOutput.split(separator: "\n").first else { throw BenchFailure("no Trackcast window") }
        try await Self.tool("xdotool", "windowfocus", "--sync", String(window))
    }

    /// Checks `isDone` every 20 ms for up to 10 s.
    private static func poll(_ isDone: () -> Bool) async throws {
        for _ in 0..<500 where !isDone() { try await Task.sleep(for: .milliseconds(20)) }
    }

    private static func mpris(_ method: String, _ shell: BusClient) throws {
        try shell.call(destination: "org.mpris.MediaPlayer2.org.trackcast.Trackcast", path: "/org/mpris/MediaPlayer2",
                       interface: "org.mpris.MediaPlayer2.Player", method: method)
    }

    private static func tool(_ name: String, _ arguments: String...) async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/\(name)"), arguments: arguments)
        guard result.status == 0 else { throw BenchFailure("\(name) \(arguments.joined(separator: " ")): \(result.standardError)") }
    }

    private static func lines(_ app: ChildProcess, after mark: String.Index) -> [Substring] {
        let output = app.standardOutput
        return output[mark...].split(separator: "\n")
    }

    private static func value(after prefix: String, in line: Substring) -> Double? {
        guard let range = line.range(of: prefix) else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
    }

    /// The monotonic time a debug line was written at ("@81234567 player bar: …"), in seconds.
    private static func loggedTime(_ line: Substring) -> Double? {
        guard let match = line.firstMatch(of: #/: @(\d+) /#), let microseconds = Double(match.1) else { return nil }
        return microseconds / 1e6
    }

    /// The same clock as the app's stamps: CLOCK_MONOTONIC is one for every process.
    private static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
