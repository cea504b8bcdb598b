import Foundation
import TestSupport

/// CPU per displayed video frame, for 10 s clips at 30 fps (1080p and 720p
/// H.264, 1080p VP8) played for real in the app's window under the bench's
/// Xvfb (software GL: Mesa's llvmpipe), against, in the same run: GStreamer
/// decoding alone (the floor), mpv drawing through GL, and Celluloid.
///
/// The app's figure counts its CPU from "playback: playing" to "playback:
/// ended" over the frames its paintable drew in between (GTK drew each at
/// least once); frames dropped on the way count against it, and are
/// reported: by QoS (late frames GStreamer's decoder or sink skipped: the
/// paintable never received them) and in the paintable's slot (a newer frame
/// came before the main thread took the last). It plays once with the path
/// the app chooses at run time and once with GPU conversion forced on.
///
/// Two more floors show where the rest goes: GStreamer decoding, scaling and
/// converting to BGRA at the size the app drew (no display), and against
/// the app's main thread, a bare GTK program showing ready frames of that
/// size 30 times a second, drawn the same way (`Benchmarks/floor/gtk-frames.c`).
struct VideoBenchmark {
    let trackcast: URL
    let floorFrames: URL
    static let frames = 300

    func run() async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-video-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let peers = try VideoPeers(folder: folder)
        var rows: [BenchRow] = []
        for clip in VideoBenchClip.all {
            let file = try await clip.make(in: folder, frames: Self.frames)
            let floor = try await VideoPeers.decodeOnly(file) / Double(Self.frames) * 1000
            let chosen = try await playInApp(file, library: folder.appendingPathComponent("library-\(clip.name)"),
                                             environment: [:])
            let gpu = try await playInApp(file, library: folder.appendingPathComponent("library-gpu-\(clip.name)"),
                                          environment: ["TRACKCAST_VIDEO_GPU": "1"])
            let mpv = try await peers.mpv(file, frames: Self.frames)
            let celluloid = try await peers.celluloid(file)
            let size = "\(chosen.frameWidth)×\(chosen.frameHeight)"
            let converted = try await VideoPeers.convertOnly(file, width: chosen.frameWidth, height: chosen.frameHeight)
                / Double(Self.frames) * 1000
            let drawn = try await peers.gtkFrames(floorFrames, width: chosen.frameWidth, height: chosen.frameHeight)
            let label = "CPU per shown \(clip.name) frame, in the window (\(chosen.path): \(chosen.summary))"
            rows.append(BenchRow(measured: label, unit: "ms", trackcast: chosen.perFrame,
                                 peerName: "playbin → fakesink, decode only (floor)", peer: floor))
            rows.append(BenchRow(measured: label, unit: "ms", trackcast: chosen.perFrame,
                                 peerName: "decode, scale and convert to BGRA at \(size), no display (floor)", peer: converted))
            rows.append(BenchRow(measured: "same, main thread only (GTK drawing \(size) frames, and the rest of the app)",
                                 unit: "ms", trackcast: chosen.mainThreadPerFrame,
                                 peerName: "bare GTK program showing ready \(size) frames the same way (floor)", peer: drawn))
            if let mpv {
                rows.append(BenchRow(measured: label, unit: "ms", trackcast: chosen.perFrame,
                                     peerName: "mpv --vo=gpu --gpu-sw, 946×532 (Celluloid's player; \(mpv.dropped) dropped)",
                                     peer: mpv.perFrame))
            }
            if let celluloid {
                rows.append(BenchRow(measured: label, unit: "ms", trackcast: chosen.perFrame,
                                     peerName: "Celluloid 0.20, 5 s of playing ÷ 150 frames (its drops unseen)",
                                     peer: celluloid))
            }
            rows.append(BenchRow(measured: "same, GPU conversion forced (TRACKCAST_VIDEO_GPU=1; \(gpu.summary))",
                                 unit: "ms", trackcast: gpu.perFrame,
                                 peerName: "playbin → fakesink, decode only (floor)", peer: floor))
        }
        return rows
    }

    /// What one play of a clip in the app cost and showed.
    struct AppPlay {
        var cpu: Double
        var mainThreadCPU: Double
        var painted: Int
        /// Frames GStreamer dropped before the paintable (QoS), and in its slot.
        var droppedByQoS: Int
        var droppedInSlot: Int
        /// "GPU" or "CPU": where the app converted frames.
        var path: String
        /// The size of the frames drawn last.
        var frameWidth: Int
        var frameHeight: Int
        var perFrame: Double { cpu / Double(max(painted, 1)) * 1000 }
        var mainThreadPerFrame: Double { mainThreadCPU / Double(max(painted, 1)) * 1000 }
        var summary: String {
            "\(painted) of \(VideoBenchmark.frames) shown, \(droppedByQoS) dropped by QoS, \(droppedInSlot) in the slot"
        }
    }

    /// Plays `clip` through in the app; its CPU while playing and what it drew.
    private func playInApp(_ clip: URL, library: URL, environment: [String: String?]) async throws -> AppPlay {
        let app = try ChildProcess(trackcast, arguments: ["--library", library.path, clip.path],
                                   environment: environment.merging([
                                       "G_MESSAGES_DEBUG": "Trackcast", "TRACKCAST_AUDIO_SINK": "fakesink sync=true",
                                   ]) { $1 })
        guard await app.waitFor(timeout: .seconds(60), { $0.standardOutput.contains("playback: playing") }),
              let start = ProcessUsage(pid: app.pid), let mainAtStart = Self.mainThreadCPU(of: app.pid)
        else { throw VideoBenchError.notPlaying(app.standardOutput) }
        let atStart = Self.counters(in: app.standardOutput)
        guard await app.waitFor(timeout: .seconds(120), { $0.standardOutput.contains("playback: ended") }),
              let end = ProcessUsage(pid: app.pid), let mainAtEnd = Self.mainThreadCPU(of: app.pid)
        else { throw VideoBenchError.notPlaying(app.standardOutput) }
        // The counts the app reports as the item ends, which come just
        // after "ended" (the last ones while playing can be half a second old).
        guard await app.waitFor(timeout: .seconds(10), {
            $0.standardOutput.components(separatedBy: "playback: ended").last?.contains("video: painted ") == true
        }) else { throw VideoBenchError.notPlaying(app.standardOutput) }
        let atEnd = Self.counters(in: app.standardOutput)
        let path = app.standardOutput.contains("video: converted on the GPU") ? "GPU" : "CPU"
        _ = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", "org.trackcast.Trackcast", "--object-path", "/org/trackcast/Trackcast",
            "--method", "org.gtk.Actions.Activate", "quit", "[]", "{}",
        ])
        _ = await app.finish(timeout: .seconds(10))
        // Every frame the paintable got, counting the first once: it
        // reaches the paintable at preroll, and again on play.
        let received = atEnd.received - 1
        return AppPlay(cpu: end.cpuSeconds - start.cpuSeconds, mainThreadCPU: mainAtEnd - mainAtStart,
                       painted: atEnd.painted - atStart.painted,
                       droppedByQoS: max(0, Self.frames - received), droppedInSlot: atEnd.dropped - atStart.dropped,
                       path: path, frameWidth: atEnd.width, frameHeight: atEnd.height)
    }

    /// CPU seconds of a process's main thread (its thread ID is the process's).
    private static func mainThreadCPU(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return nil }
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The last "video: painted N dropped M received R frame WxH …" counts in the app's log.
    private static func counters(in log: String) -> (painted: Int, dropped: Int, received: Int, width: Int, height: Int) {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("video: painted ") }) else { return (0, 0, 0, 0, 0) }
        let words = line.components(separatedBy: "video: painted ").last?.split(separator: " ") ?? []
        func number(after word: String) -> Int {
            words.firstIndex { $0 == word }.flatMap { words.index(after: $0) < words.endIndex ? Int(words[$0 + 1]) : nil } ?? 0
        }
        let size = words.firstIndex { $0 == "frame" }.flatMap { words.index(after: $0) < words.endIndex ? words[$0 + 1] : nil }
        let sides = size?.split(separator: "x").compactMap { Int($0) } ?? []
        return (words.first.flatMap { Int($0) } ?? 0, number(after: "dropped"), number(after: "received"),
                sides.count == 2 ? sides[0] : 0, sides.count == 2 ? sides[1] : 0)
    }
}

enum VideoBenchError: Error, CustomStringConvertible {
    case notPlaying(String)
    case pipelineFailed(String, String)
    var description: String {
        switch self {
        case .notPlaying(let log): "the app did not play the clip through: \(log.suffix(2000))"
        case .pipelineFailed(let pipeline, let error): "gst-launch-1.0 \(pipeline) failed: \(error)"
        }
    }
}
