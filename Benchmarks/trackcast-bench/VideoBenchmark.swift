import Foundation
import TestSupport

/// CPU per displayed frame of a 1080p30 H.264 clip played for real in the
/// app's window (under the bench's Xvfb, software GL), against GStreamer
/// alone in the same run: decoding only (`playbin` into `fakesink`), and
/// decoding plus the colour conversion the app's sink asks for (BGRA).
///
/// The app's figure counts its CPU from "playback: playing" to "playback:
/// ended" and the frames its paintable drew in between (GTK drew each at
/// least once); frames the pipeline dropped for lateness count against it.
/// The floors run the whole clip in gst-launch-1.0, start-up included, and
/// divide by the clip's frame count.
struct VideoBenchmark {
    let trackcast: URL
    static let frames = 300

    func run() async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-video-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("1080p30.mp4")
        // Moving bars: every frame differs, as in real video.
        try await Self.launch("videotestsrc num-buffers=\(Self.frames) pattern=smpte horizontal-speed=4 "
                              + "! video/x-raw,width=1920,height=1080,framerate=30/1 "
                              + "! x264enc speed-preset=veryfast bitrate=6000 key-int-max=60 ! h264parse ! mp4mux "
                              + "! filesink location=\(clip.path)")

        let (appCPU, painted) = try await playInApp(clip, library: folder.appendingPathComponent("library"))
        let decodeOnly = try await Self.launch("playbin uri=\(clip.absoluteString) video-sink=fakesink audio-sink=fakesink")
        let converted = try await Self.launch("playbin uri=\(clip.absoluteString) audio-sink=fakesink "
                                              + "video-sink=\"videoconvert ! video/x-raw,format=BGRA ! fakesink\"")
        let perFrame = appCPU / Double(max(painted, 1)) * 1000
        let label = "CPU per displayed 1080p30 H.264 frame, in the window (\(painted) of \(Self.frames) frames shown)"
        return [
            BenchRow(measured: label, unit: "ms", trackcast: perFrame,
                     peerName: "playbin → fakesink, decode only (floor)", peer: decodeOnly / Double(Self.frames) * 1000),
            BenchRow(measured: label, unit: "ms", trackcast: perFrame,
                     peerName: "decode + videoconvert to BGRA (floor)", peer: converted / Double(Self.frames) * 1000),
        ]
    }

    /// The app's CPU seconds while the clip played, and the frames it drew.
    private func playInApp(_ clip: URL, library: URL) async throws -> (cpu: Double, painted: Int) {
        let app = try ChildProcess(trackcast, arguments: ["--library", library.path, clip.path], environment: [
            "G_MESSAGES_DEBUG": "Trackcast", "TRACKCAST_AUDIO_SINK": "fakesink sync=true",
        ])
        guard await app.waitFor(timeout: .seconds(60), { $0.standardOutput.contains("playback: playing") }),
              let start = ProcessUsage(pid: app.pid) else { throw VideoBenchError.notPlaying(app.standardOutput) }
        let paintedAtStart = Self.painted(in: app.standardOutput)
        guard await app.waitFor(timeout: .seconds(120), { $0.standardOutput.contains("playback: ended") }),
              let end = ProcessUsage(pid: app.pid) else { throw VideoBenchError.notPlaying(app.standardOutput) }
        let painted = Self.painted(in: app.standardOutput) - paintedAtStart
        _ = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", "org.trackcast.Trackcast", "--object-path", "/org/trackcast/Trackcast",
            "--method", "org.gtk.Actions.Activate", "quit", "[]", "{}",
        ])
        _ = await app.finish(timeout: .seconds(10))
        return (end.cpuSeconds - start.cpuSeconds, painted)
    }

    /// The last "video: painted N …" count in the app's log.
    private static func painted(in log: String) -> Int {
        log.split(separator: "\n").last { $0.contains("video: painted ") }
            .flatMap { $0.components(separatedBy: "video: painted ").last?.split(separator: " ").first }
            .flatMap { Int($0) } ?? 0
    }

    /// Runs a gst-launch-1.0 pipeline; returns its CPU seconds (user + system).
    @discardableResult
    private static func launch(_ pipeline: String) async throws -> Double {
        var before = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                arguments: ["-c", "exec gst-launch-1.0 -q \(pipeline)"],
                                                timeout: .seconds(300))
        guard result.status == 0 else { throw VideoBenchError.pipelineFailed(pipeline, result.standardError) }
        var after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        func seconds(_ usage: rusage) -> Double {
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return seconds(after) - seconds(before)
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
