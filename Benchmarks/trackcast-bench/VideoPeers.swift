import Foundation
import TestSupport

/// What the app's video rows are measured against, in the same run: decoding
/// alone in GStreamer (the floor), mpv drawing through GL (the player inside
/// Celluloid, with a count of the frames it dropped), and Celluloid itself
/// (a GTK app drawing libmpv's GL output; it reports no drops). mpv and
/// Celluloid are skipped when not installed (meson-helpers/deps installs them).
struct VideoPeers {
    /// A private runtime folder for mpv, which refuses to start without one,
    /// and its script that reports the drop counters at the end and quits.
    private let runtimeFolder: URL
    private let dropsScript: URL

    init(folder: URL) throws {
        runtimeFolder = folder.appendingPathComponent("xdg-runtime")
        try FileManager.default.createDirectory(at: runtimeFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        dropsScript = folder.appendingPathComponent("report-drops.lua")
        try """
        -- At the end of the file: mpv's dropped-frame counters on stderr, then quit.
        mp.observe_property("eof-reached", "bool", function(_, reached)
            if reached then
                io.stderr:write(string.format("mpv-drops %s %s\\n",
                    mp.get_property("frame-drop-count", "0"), mp.get_property("decoder-frame-drop-count", "0")))
                mp.command("quit")
            end
        end)
        """.write(to: dropsScript, atomically: true, encoding: .utf8)
    }

    /// CPU seconds of `playbin` decoding the whole clip into `fakesink`, as fast as it can.
    static func decodeOnly(_ clip: URL) async throws -> Double {
        try await launch("playbin uri=\(clip.absoluteString) video-sink=fakesink audio-sink=fakesink")
    }

    /// mpv through its GL output (`--gpu-sw` lets it use llvmpipe, which it
    /// refuses by default), at the size the app's window draws video, in
    /// real time: CPU per frame it showed, and how many it dropped.
    func mpv(_ clip: URL, frames: Int) async throws -> (perFrame: Double, dropped: Int)? {
        let mpv = URL(fileURLWithPath: "/usr/bin/mpv")
        guard FileManager.default.isExecutableFile(atPath: mpv.path) else { return nil }
        let (cpu, result) = try await Self.measuringChildren {
            try await ChildProcess.run(mpv, arguments: [
                "--no-config", "--really-quiet", "--vo=gpu", "--gpu-sw", "--hwdec=no", "--ao=null",
                "--geometry=946x532", "--keep-open=yes", "--script=\(dropsScript.path)", clip.path,
            ], environment: ["XDG_RUNTIME_DIR": runtimeFolder.path], timeout: .seconds(120))
        }
        guard result.status == 0, let line = result.standardError.split(separator: "\n").last(where: { $0.hasPrefix("mpv-drops ") })
        else { throw VideoBenchError.pipelineFailed("mpv \(clip.lastPathComponent)", result.standardError) }
        let dropped = line.split(separator: " ").dropFirst().compactMap { Int($0) }.reduce(0, +)
        return (cpu / Double(max(frames - dropped, 1)) * 1000, dropped)
    }

    /// Celluloid playing the clip in its window: CPU per frame over 5 s of
    /// playing (from 3 s after launch, by when it plays), assuming it showed
    /// all 150 frames of those 5 s; it has no drop counter to read.
    func celluloid(_ clip: URL) async throws -> Double? {
        let celluloid = URL(fileURLWithPath: "/usr/bin/celluloid")
        guard FileManager.default.isExecutableFile(atPath: celluloid.path) else { return nil }
        let app = try ChildProcess(celluloid, arguments: ["--new-window", "--mpv-options=--hwdec=no --ao=null", clip.path],
                                   environment: ["XDG_RUNTIME_DIR": runtimeFolder.path, "GSETTINGS_BACKEND": "memory"])
        try await Task.sleep(for: .seconds(3))
        guard let start = ProcessUsage(pid: app.pid) else { return nil }
        try await Task.sleep(for: .seconds(5))
        guard let end = ProcessUsage(pid: app.pid) else { return nil }
        // Celluloid takes SIGTERM (Foundation's terminate) as a request it
        // does not act on while playing: killed.
        kill(app.pid, SIGKILL)
        _ = await app.finish(timeout: .seconds(10))
        return (end.cpuSeconds - start.cpuSeconds) / 150 * 1000
    }

    /// CPU seconds of `playbin` decoding the whole clip, scaling it to
    /// `width`×`height` and converting it to BGRA as the app's sink does,
    /// into `fakesink`, as fast as it can: everything but the display.
    static func convertOnly(_ clip: URL, width: Int, height: Int) async throws -> Double {
        try await launch("playbin uri=\(clip.absoluteString) audio-sink=fakesink video-sink='videoscale "
                         + "! video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1 "
                         + "! videoconvertscale ! video/x-raw,format=BGRA ! fakesink'")
    }

    /// The bare GTK program's CPU per frame showing ready `width`×`height`
    /// frames (it prints "cpu-per-frame-ms N"), drawing with cairo as the app does here.
    func gtkFrames(_ program: URL, width: Int, height: Int) async throws -> Double {
        let result = try await ChildProcess.run(program, arguments: ["\(width)", "\(height)"],
                                                environment: ["GSK_RENDERER": "cairo"], timeout: .seconds(60))
        guard result.status == 0, let line = result.standardOutput.split(separator: "\n").last(where: { $0.hasPrefix("cpu-per-frame-ms ") }),
              let perFrame = Double(line.split(separator: " ")[1])
        else { throw VideoBenchError.pipelineFailed(program.lastPathComponent, result.standardError) }
        return perFrame
    }

    /// Runs a gst-launch-1.0 pipeline; returns its CPU seconds (user + system).
    @discardableResult
    static func launch(_ pipeline: String) async throws -> Double {
        let (cpu, result) = try await measuringChildren {
            try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec gst-launch-1.0 -q \(pipeline)"],
                                       timeout: .seconds(300))
        }
        guard result.status == 0 else { throw VideoBenchError.pipelineFailed(pipeline, result.standardError) }
        return cpu
    }

    /// The CPU seconds of the child processes that ended during `body`.
    private static func measuringChildren<T>(_ body: () async throws -> T) async throws -> (Double, T) {
        var before = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        let value = try await body()
        var after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        func seconds(_ usage: rusage) -> Double {
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return (seconds(after) - seconds(before), value)
    }
}
