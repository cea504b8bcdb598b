import Bindings
import Foundation
import TestSupport
import TrackcastCore
import TrackcastPlayback

/// The player's start-up and seek latency against bare GStreamer doing the
/// same in the same run: a `playbin` with the same sink, started straight
/// to PLAYING, and seeked with the same flags, timed on its bus.
///
/// "First audio buffer" is when the sink has rendered one buffer: the sink
/// (`fakesink sync=true num-buffers=1`) then posts end-of-stream, which
/// bare GStreamer sees on its bus and the player reports as the item's end.
/// The player's number includes what a user waits for and the floor skips:
/// the asset probe (run alongside the preroll), the state store, and the
/// main actor. This executable's main is async, so the main actor runs on
/// libdispatch's main queue and a main-actor task dispatches GLib every
/// 250 µs, where the app's GLib main loop would dispatch at once.
@MainActor
struct PlaybackBenchmark {
    var startRuns = 9
    var seekRuns = 15

    func run() async throws -> [BenchRow] {
        GStreamer.initialize()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-play-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("tone.opus")
        try Self.makeTone(at: file)
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/tone.opus", .serve(try Data(contentsOf: file), contentType: "audio/ogg"))

        let pump = Task { @MainActor in
            while !Task.isCancelled {
                while MainContext.dispatchPending() {}
                try? await Task.sleep(for: .microseconds(250))
            }
        }
        defer { pump.cancel() }

        var rows: [BenchRow] = []
        for (label, uri) in [("local Opus", file.absoluteString), ("Opus over loopback HTTP", server.url("/tone.opus"))] {
            let (ours, floor) = try await firstBuffer(uri)
            rows.append(BenchRow(measured: "load to first audio buffer, \(label) (median of \(startRuns))", unit: "ms",
                                 trackcast: ours, peerName: "bare playbin to PLAYING (floor)", peer: floor))
        }
        let (ours, floor) = try await exactSeek(file.absoluteString)
        rows.append(BenchRow(measured: "exact seek while paused, local Opus (median of \(seekRuns))", unit: "ms",
                             trackcast: ours, peerName: "bare playbin ACCURATE seek (floor)", peer: floor))
        return rows
    }

    private static let firstBufferSink = "fakesink sync=true num-buffers=1"

    private func firstBuffer(_ uri: String) async throws -> (ours: Double, floor: Double) {
        var configuration = PlayerConfiguration()
        configuration.audioSink = Self.firstBufferSink
        configuration.decodesVideo = false
        let controller = try PlayerController(configuration: configuration)
        let bare = try Self.barePlaybin(sink: Self.firstBufferSink)

        var ours: [Double] = []
        var floor: [Double] = []
        // The first of each warms caches and loads plug-ins; it is not counted.
        for run in 0...startRuns {
            let oursTime = try await Self.milliseconds {
                let id = controller.load(PlaybackItem(uri: uri, kind: .audio))
                var ends = controller.endOfItem(id).makeAsyncIterator()
                guard await ends.next() == id else { throw BenchFailure("the player never played \(uri)") }
            }
            let floorTime = try Self.milliseconds {
                bare.setState(.null)
                bare.uri = uri
                bare.setState(.playing)
                // The first buffer at the sink completes the preroll (ASYNC_DONE).
                // (Its end of stream after that one buffer never comes over
                // HTTP: the source streams on.) The player's number runs to
                // the end of that one-buffer stream, so it is the longer path.
                let message = bare.bus?.waitForMessage([.asyncDone, .error], timeout: .seconds(20))
                guard message?.kind == .asyncDone else {
                    throw BenchFailure("bare playbin never played \(uri): \(message?.failure?.error.message ?? "timed out")")
                }
            }
            if run > 0 {
                ours.append(oursTime)
                floor.append(floorTime)
            }
        }
        controller.stop()
        bare.setState(.null)
        return (Self.median(ours), Self.median(floor))
    }

    private func exactSeek(_ uri: String) async throws -> (ours: Double, floor: Double) {
        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink sync=true"
        configuration.decodesVideo = false
        let controller = try PlayerController(configuration: configuration)
        let id = controller.load(PlaybackItem(uri: uri, kind: .audio), autoplay: false)
        for await state in await controller.store.updates() where state.itemID == id {
            if case .ready = state.phase { break }
            if case .failed(let error) = state.phase { throw BenchFailure("cannot load \(uri): \(error)") }
        }
        var landings = controller.seekCompletions(of: id).makeAsyncIterator()

        let bare = try Self.barePlaybin(sink: "fakesink sync=true")
        bare.uri = uri
        bare.setState(.paused)
        _ = bare.bus?.waitForMessage([.asyncDone], timeout: .seconds(20))

        var generator = SystemRandomNumberGenerator()
        var ours: [Double] = []
        var floor: [Double] = []
        for run in 0...seekRuns {
            let target = Duration.milliseconds(Int64.random(in: 500...9_000, using: &generator))
            let seekStart = ContinuousClock.now
            controller.seek(to: target, mode: .exact)
            guard await landings.next(isolation: MainActor.shared) != nil else { throw BenchFailure("the seek never landed") }
            let oursTime = (ContinuousClock.now - seekStart) / .milliseconds(1)
            let floorTime = try Self.milliseconds {
                bare.seek(to: target, flags: [.flush, .accurate])
                guard bare.bus?.waitForMessage([.asyncDone], timeout: .seconds(20)) != nil else {
                    throw BenchFailure("bare playbin's seek never landed")
                }
            }
            if run > 0 {
                ours.append(oursTime)
                floor.append(floorTime)
            }
        }
        controller.stop()
        bare.setState(.null)
        return (Self.median(ours), Self.median(floor))
    }

    private static func barePlaybin(sink: String) throws -> Playbin {
        let playbin = try Playbin(.playbin)
        playbin.setAudioSink(try Element.bin(describedBy: sink))
        playbin.setFlags("audio+soft-volume")
        return playbin
    }

    /// 10 s of 48 kHz stereo Opus, made with gst-launch-1.0.
    private static func makeTone(at file: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "audiotestsrc", "num-buffers=500", "samplesperbuffer=960", "!",
                             "audio/x-raw,rate=48000,channels=2", "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!",
                             "filesink", "location=\(file.path)"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("gst-launch-1.0 could not make \(file.path)") }
    }

    private static func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start) / .milliseconds(1)
    }

    private static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return (ContinuousClock.now - start) / .milliseconds(1)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
