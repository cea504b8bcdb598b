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

    fileprivate func run(_ action: String, _ parameter: String = "[]") async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", "org.trackcast.Trackcast", "--object-path", "/org/trackcast/Trackcast",
            "--method", "org.gtk.Actions.Activate", action, parameter, "{}",
        ])
        #expect(result.status == 0, "activating \(action): \(result.standardError)")
    }

    /// Waits for `line` in what the app printed after `offset`.
    fileprivate func waitForLine(_ app: ChildProcess, _ line: String, after offset: String.Index? = nil,
                                 timeout: Duration = .seconds(20)) async -> Bool {
        await app.waitFor(timeout: timeout) {
            let output = $0.standardOutput
            return output[(offset ?? output.startIndex)...].contains(line)
        }
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

    @Test("the queue is edited through actions, advances at the end of an episode, and is kept in the library")
    func queueAdvancesAndPersists() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await launchListening(library: library)
        do {
            try await run("try-sample-show")
            try #require(await waitForLine(app, "show page: 2 episodes"), "\(app.standardOutput)")
            // Episode 1 is "Welcome", episode 2 "Tips".
            try await run("queue-last", "[<int64 2>]")
            try #require(await waitForLine(app, "queue: 1 episodes"))
            var mark = app.standardOutput.endIndex
            try await run("queue-last", "[<int64 1>]")
            try #require(await waitForLine(app, "queue: 2 episodes", after: mark))
            mark = app.standardOutput.endIndex
            try await run("queue-move", "[<(int64 1, 0)>]")
            try #require(await waitForLine(app, "up next: 2 episodes", after: mark), "\(app.standardOutput[mark...])")
            #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [1, 2])
            mark = app.standardOutput.endIndex
            try await run("queue-remove", "[<int64 1>]")
            try #require(await waitForLine(app, "queue: 1 episodes", after: mark))

            // Welcome plays to its end; Tips follows and leaves the queue.
            mark = app.standardOutput.endIndex
            try await run("play-episode", "[<int64 1>]")
            try #require(await waitForLine(app, "playing file://", after: mark))
            let started = mark
            try #require(await app.waitFor(timeout: .seconds(20)) {
                !Self.loggedPositions(String($0.standardOutput[started...])).isEmpty
            })
            try await run("seek-to", "[<10000.0>]")
            let advanced = await waitForLine(app, "next in the queue: episode 2", after: mark, timeout: .seconds(30))
            try #require(advanced, "the queue did not advance: \(app.standardOutput[mark...])")
            #expect(await waitForLine(app, "sample/tips.opus", after: mark))
            #expect(await waitForLine(app, "queue: 0 episodes", after: mark))
            #expect(await waitForLine(app, "finished episode(", after: mark))

            try await run("queue-next", "[<int64 1>]")
            #expect(await waitForLine(app, "queue: 1 episodes", after: mark))
        } catch {
            _ = try? await quit(app)
            throw error
        }
        let result = try await quit(app)
        #expect(result.status == 0 && !result.timedOut)
        #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [1])
    }
}
