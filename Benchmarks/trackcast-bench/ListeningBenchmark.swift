import Bindings
import Foundation
import TestSupport
import TrackcastCore
import TrackcastPlayback

/// Skip silence and voice boost on a generated talk-like Opus file
/// (`TalkLikeAudio`: syllables, and pauses of known lengths).
///
/// Time saved is set against what the file's pauses hold beyond the
/// silence skipping keeps of each: the ratio says how much of that it
/// found. CPU is the process's own (getrusage) for playing the file to its
/// end through the player into `fakesink sync=false`, as fast as it
/// decodes, with both effects on, against the same with both off: the
/// chain is there either way (scaletempo, and the effects passing audio
/// through), so the ratio is the price of the effects' work.
@MainActor
struct ListeningBenchmark {
    var cpuRuns = 5

    func run() async throws -> [BenchRow] {
        GStreamer.initialize()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-listen-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let talk = Self.conversation(minutes: 10)
        let file = try Self.makeOpus(talk, in: folder)


        let kept = ListeningEffects.keptSilence / .seconds(1)
        let silenceBeyondKept = talk.silence(beyond: kept)
        let (saved, _) = try await play(file, with: ListeningEffects(skipsSilence: true))
        var plain: [Double] = []
        var effects: [Double] = []
        // Alternating, so a change in the machine's load falls on both; the first pair warms up.
        for run in 0...cpuRuns {
            let (_, plainCPU) = try await play(file, with: ListeningEffects())
            let (_, effectsCPU) = try await play(file, with: ListeningEffects(skipsSilence: true, boostsVoice: true))
            if run > 0 {
                plain.append(plainCPU)
                effects.append(effectsCPU)
            }
        }
        return [
            BenchRow(measured: "time saved by skip silence, 10 min talk-like Opus", unit: "s", trackcast: saved,
                     peerName: "pauses beyond the \(Int(kept * 1000)) ms kept (known)", peer: silenceBeyondKept),
            BenchRow(measured: "CPU to play it, skip silence + voice boost (median of \(cpuRuns))", unit: "ms",
                     trackcast: Self.median(effects), peerName: "the same, effects off", peer: Self.median(plain)),
        ]
    }

    /// Plays `file` to its end; returns the time skipping saved (s) and the CPU it took (ms).
    private func play(_ file: URL, with effects: ListeningEffects) async throws -> (saved: Double, cpu: Double) {
        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink sync=false"
        configuration.decodesVideo = false
        let controller = try PlayerController(configuration: configuration)
        controller.setListeningEffects(effects)
        let before = Self.cpuMilliseconds()
        let id = controller.load(PlaybackItem(uri: file.absoluteString, kind: .audio))
        var ends = controller.endOfItem(id).makeAsyncIterator()
        guard await ends.next() == id else { throw BenchFailure("the player never finished \(file.path)") }
        let cpu = Self.cpuMilliseconds() - before
        let saved = controller.timeSavedBySkippingSilence / .seconds(1)
        controller.stop()
        return (saved, cpu)
    }

    /// Talk of 2–9 s between pauses of 0.15–2.5 s, the same every run.
    static func conversation(minutes: Int) -> TalkLikeAudio {
        var random = SplitMix(seed: 5)
        var parts: [TalkLikeAudio.Part] = []
        var length = 0.0
        while length < Double(minutes * 60) {
            let talk = 2 + Double(random.next() % 700) / 100
            let pause = 0.15 + Double(random.next() % 235) / 100
            parts += [.talk(seconds: talk, peakDB: -6 - Double(random.next() % 20)), .pause(seconds: pause)]
            length += talk + pause
        }
        return TalkLikeAudio(parts: parts)
    }

    private static func makeOpus(_ talk: TalkLikeAudio, in folder: URL) throws -> URL {
        let opus = folder.appendingPathComponent("talk.opus")
        try talk.writeOpus(to: opus)
        return opus
    }

    /// User and system CPU of the whole process so far.
    private static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}

/// A small seeded generator, so the conversation is the same in every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
