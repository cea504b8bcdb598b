import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// Resume positions, the queue and the sleep timer through the running app.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    fileprivate func launchListening(library: URL, arguments: [String] = []) async throws -> ChildProcess {
        let app = try ChildProcess(trackcast, arguments: ["--library", library.path] + arguments, environment: [
            "G_MESSAGES_DEBUG": "Trackcast",
            // Plays in real time without a sound device.
            "TRACKCAST_AUDIO_SINK": "fakesink sync=true",
        ])
        let ready = await app.waitFor(timeout: .seconds(30)) {
            $0.standardOutput.contains("first frame painted") && $0.standardOutput.contains("library ready")
        }
        try #require(ready, "no window or library within 30 s: \(app.standardOutput) \(app.standardError)")
        return app
    }

    fileprivate static func loggedPositions(_ output: String) -> [Double] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "position: ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }
    }

    /// A minute of Opus, long enough to be killed in the middle of.
    fileprivate static func minuteOfAudio() async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-minute-\(UUID()).opus")
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=600", "samplesperbuffer=4800", "wave=sine", "!",
            "audio/x-raw,rate=48000,channels=1", "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!",
            "filesink", "location=\(file.path)",
        ], timeout: .seconds(60))
        try #require(made.status == 0, "gst-launch failed: \(made.standardError)")
        return file
    }

    @Test("SIGKILL while playing: the next start resumes within the flush interval of where it was")
    func resumesAfterKill() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        let media = try await Self.minuteOfAudio()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let first = try await launchListening(library: library, arguments: [media.path])
        let played = await first.waitFor(timeout: .seconds(40)) { Self.loggedPositions($0.standardOutput).contains { $0 >= 12 } }
        let killedAt = Self.loggedPositions(first.standardOutput).last ?? 0
        kill(first.pid, SIGKILL)
        _ = await first.finish(timeout: .seconds(10))
        try #require(played, "the file did not play: \(first.standardOutput) \(first.standardError)")

        let second = try await launchListening(library: library, arguments: [media.path])
        let resumed = await second.waitFor(timeout: .seconds(30)) { !Self.loggedPositions($0.standardOutput).isEmpty }
        let start = Self.loggedPositions(second.standardOutput).first ?? 0
        _ = try await quit(second)
        try #require(resumed, "the file did not play again: \(second.standardOutput) \(second.standardError)")
        // Flushed every 5 s from positions recorded every second; the first
        // tick after resuming may be half a second on.
        #expect(start >= killedAt - 7 && start <= killedAt + 1.5, "killed at \(killedAt) s, resumed at \(start) s")
    }
}
