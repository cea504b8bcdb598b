import Foundation
import TestSupport

/// Frame times while scrolling the big library's long show page, and the
/// app's resident memory with that library, each against a floor in the
/// same run:
///
/// - frames: the app opens show 1 (`BigLibrary.firstShowEpisodes` episodes,
///   every one listed, a page at a time) and the mouse wheel is turned over
///   its list, `wheelClicks` clicks through xdotool `clickInterval` apart,
///   as a person turns a wheel briskly; the app prints each frame's time
///   (`TRACKCAST_FRAME_TIMES=1`: from the frame clock's flush-events to its
///   after-paint, so handling the wheel, binding rows, layout and drawing). The floor is a C `GtkListView` of as many
///   rows (`Benchmarks/floor/gtk-list.c`), measured and scrolled the same way.
/// - memory: the app's resident set (VmRSS) right after that scrolling,
///   against the same app with an empty library, window shown.
///
/// Both processes draw with cairo: the floor told so (`GSK_RENDERER=cairo`),
/// the app by its own choice on software GL or none (`RendererChoice`), so
/// they draw alike and the app's memory is what a user's is (a GSK_RENDERER
/// of the user's own makes the app load GL even where it has no GPU).
struct ShowPageScrollBenchmark {
    let trackcast: URL
    let floorList: URL
    var wheelClicks = 300
    /// 60 ms: at 15 ms the clicks piled up behind the app's slow frames and
    /// GTK 4.8's list leapt to its last row within a second, so most frames
    /// measured were idle repaints at the end.
    var clickInterval: Duration = .milliseconds(60)

    func run() async throws -> [BenchRow] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-scroll-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        let big = try await BigLibrary.make(at: base.appendingPathComponent("big"))

        let (appFrames, bigResident) = try await scrollApp(library: big)
        let emptyResident = try await idleAppResident(library: base.appendingPathComponent("empty"))
        let floorFrames = try await scrollFloor()

        let page = "the \(BigLibrary.firstShowEpisodes / 1000)k-episode show page of the \(BigLibrary.label) library"
        let floorName = "C GtkListView, as many rows (floor)"
        return [
            BenchRow(measured: "frame time scrolling \(page), p50 (\(appFrames.count) frames)", unit: "ms",
                     trackcast: Self.percentile(appFrames, 0.5), peerName: floorName + " (\(floorFrames.count) frames)",
                     peer: Self.percentile(floorFrames, 0.5)),
            BenchRow(measured: "frame time scrolling \(page), p99", unit: "ms",
                     trackcast: Self.percentile(appFrames, 0.99), peerName: floorName,
                     peer: Self.percentile(floorFrames, 0.99)),
            BenchRow(measured: "resident memory, \(BigLibrary.label) library, after scrolling its show page", unit: "MB",
                     trackcast: bigResident, peerName: "same app, empty library", peer: emptyResident),
        ]
    }

    private static let environment: [String: String?] = [
        "G_MESSAGES_DEBUG": "Trackcast", "TRACKCAST_AUDIO_SINK": "fakesink",
    ]

    /// The app's frame times while its show page scrolls, and its resident memory after.
    private func scrollApp(library: URL) async throws -> (frames: [Double], residentMB: Double) {
        let app = try ChildProcess(trackcast, arguments: ["--library", library.path],
                                   environment: Self.environment.merging(["TRACKCAST_FRAME_TIMES": "1"]) { $1 })
        defer { if app.isRunning { kill(app.pid, SIGKILL) } }
        try await expect(app, within: .seconds(60), "library ready") {
            $0.contains("first frame painted") && $0.contains("library ready")
        }
        try await Self.activate("open-show", "[<int64 1>]")
        let listed = "show page: \(BigLibrary.firstShowEpisodes) episodes"
        try await expect(app, within: .seconds(60), listed) { $0.contains(listed) }
        let frames = try await turnWheel(over: app)
        let resident = try Self.residentMB(of: app.pid)
        try await Self.activate("quit")
        _ = await app.finish(timeout: .seconds(10))
        return (frames, resident)
    }

    private func idleAppResident(library: URL) async throws -> Double {
        let app = try ChildProcess(trackcast, arguments: ["--library", library.path], environment: Self.environment)
        defer { if app.isRunning { kill(app.pid, SIGKILL) } }
        try await expect(app, within: .seconds(60), "library ready") {
            $0.contains("first frame painted") && $0.contains("library ready")
        }
        try await Task.sleep(for: .seconds(1))
        let resident = try Self.residentMB(of: app.pid)
        try await Self.activate("quit")
        _ = await app.finish(timeout: .seconds(10))
        return resident
    }

    private func scrollFloor() async throws -> [Double] {
        let floor = try ChildProcess(floorList, arguments: ["\(BigLibrary.firstShowEpisodes)"],
                                     environment: ["GSK_RENDERER": "cairo"])
        defer { if floor.isRunning { kill(floor.pid, SIGKILL) } }
        try await expect(floor, within: .seconds(30), "first-frame") { $0.contains("first-frame") }
        let frames = try await turnWheel(over: floor)
        // SIGKILL: started from the bench, the floor did not end on SIGTERM (and the wait for it hung).
        kill(floor.pid, SIGKILL)
        _ = await floor.finish(timeout: .seconds(10))
        return frames
    }

    /// Turns the wheel over the middle of the list (the window is at the
    /// screen's corner: no window manager) and returns the frame times
    /// printed meanwhile.
    private func turnWheel(over process: ChildProcess) async throws -> [Double] {
        try await Self.xdotool("mousemove", "480", "480")
        try await Task.sleep(for: .milliseconds(500))
        let before = process.standardOutput.endIndex
        let delay = clickInterval / .milliseconds(1)
        try await Self.xdotool("click", "--repeat", "\(wheelClicks)", "--delay", "\(Int(delay))", "5")
        // The last frames of the scroll.
        try await Task.sleep(for: .milliseconds(500))
        let output = process.standardOutput
        let frames = output[before...].split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("frame-time: ") else { return nil }
            return Double(line.dropFirst("frame-time: ".count))
        }
        guard frames.count > 10 else {
            let log = output[before...].split(separator: "\n").filter { !$0.contains("no artwork") }.suffix(30)
            throw ScrollBenchError.noFrames("\(frames.count) frames; \(log.joined(separator: "\n"))")
        }
        return frames
    }

    private func expect(_ process: ChildProcess, within timeout: Duration, _ what: String,
                        _ condition: @escaping @Sendable (String) -> Bool) async throws {
        guard await process.waitFor(timeout: timeout, { condition($0.standardOutput) }) else {
            throw ScrollBenchError.notReady(what, String(process.standardOutput.suffix(2000)) + process.standardError.suffix(2000))
        }
    }

    private static func activate(_ action: String, _ parameter: String = "[]") async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", "org.trackcast.Trackcast", "--object-path", "/org/trackcast/Trackcast",
            "--method", "org.gtk.Actions.Activate", action, parameter, "{}",
        ])
        guard result.status == 0 else { throw ScrollBenchError.command("gdbus \(action)", result.standardError) }
    }

    private static func xdotool(_ arguments: String...) async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"), arguments: arguments,
                                                timeout: .seconds(60))
        guard result.status == 0 else { throw ScrollBenchError.command("xdotool \(arguments)", result.standardError) }
    }

    /// VmRSS from /proc, in MB (10^6 bytes).
    private static func residentMB(of pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else {
            throw ScrollBenchError.command("reading /proc/\(pid)/status", status)
        }
        return kilobytes * 1024 / 1e6
    }

    /// Nearest-rank percentile.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }
}

enum ScrollBenchError: Error, CustomStringConvertible {
    case notReady(String, String)
    case noFrames(String)
    case command(String, String)
    var description: String {
        switch self {
        case .notReady(let what, let log): "not ready (\(what)): \(log)"
        case .noFrames(let log): "too few frame times while scrolling: \(log)"
        case .command(let command, let error): "\(command) failed: \(error)"
        }
    }
}
