import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// Resume positions, the queue and the sleep timer through the running app.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
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
        let library = RunningApp.temporaryLibrary()
        let media = try await Self.minuteOfAudio()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let first = try await RunningApp.launch(library: library, arguments: [media.path])
        let played = await first.waitFor(timeout: .seconds(40)) { $0.positions().contains { $0 >= 12 } }
        let killedAt = first.positions().last ?? 0
        kill(first.pid, SIGKILL)
        _ = await first.finish(timeout: .seconds(10))
        try #require(played, "the file did not play: \(first.standardOutput) \(first.standardError)")

        let second = try await RunningApp.launch(library: library, arguments: [media.path])
        let resumed = await second.waitFor(timeout: .seconds(30)) { !$0.positions().isEmpty }
        let start = second.positions().first ?? 0
        _ = try await second.quit()
        try #require(resumed, "the file did not play again: \(second.standardOutput) \(second.standardError)")
        print("killed at \(killedAt) s, resumed at \(start) s")
        // Flushed every 5 s from positions recorded every second; the first
        // tick after resuming may be half a second on.
        #expect(start >= killedAt - 7 && start <= killedAt + 1.5, "killed at \(killedAt) s, resumed at \(start) s")
    }

    @Test("the queue is edited through actions, advances at the end of an episode, and is kept in the library")
    func queueAdvancesAndPersists() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            // Episode 1 is "Welcome", episode 2 "Tips".
            try await app.activate("queue-last", "[<int64 2>]")
            try #require(await app.waitForLine("queue: 1 episodes"))
            var mark = app.standardOutput.endIndex
            try await app.activate("queue-last", "[<int64 1>]")
            try #require(await app.waitForLine("queue: 2 episodes", after: mark))
            mark = app.standardOutput.endIndex
            try await app.activate("queue-move", "[<(int64 1, 0)>]")
            try #require(await app.waitForLine("up next: 2 episodes", after: mark), "\(app.standardOutput[mark...])")
            #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [1, 2])
            mark = app.standardOutput.endIndex
            try await app.activate("queue-remove", "[<int64 1>]")
            try #require(await app.waitForLine("queue: 1 episodes", after: mark))

            // Welcome plays to its end; Tips follows and leaves the queue.
            mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: mark))
            let started = mark
            try #require(await app.waitFor(timeout: .seconds(20)) {
                !$0.positions(after: started).isEmpty
            })
            try await app.activate("seek-to", "[<10000.0>]")
            let advanced = await app.waitForLine("next in the queue: episode 2", after: mark, timeout: .seconds(30))
            try #require(advanced, "the queue did not advance: \(app.standardOutput[mark...])")
            #expect(await app.waitForLine("sample/tips.opus", after: mark))
            #expect(await app.waitForLine("queue: 0 episodes", after: mark))
            #expect(await app.waitForLine("finished episode(", after: mark))

            try await app.activate("queue-next", "[<int64 1>]")
            #expect(await app.waitForLine("queue: 1 episodes", after: mark))
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [1])
    }

    @Test("the feed's chapters are followed by the play head; the end-of-chapter sleep timer pauses at the boundary")
    func chaptersAndSleepTimer() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            // "Welcome to Trackcast": chapters "Welcome" at 0 s and "Keys to try" at 11 s.
            var mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("chapters: 2", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitForLine("chapter: Welcome", after: mark))
            try await app.activate("sleep-timer", "[<'end-of-chapter'>]")
            try #require(await app.waitForLine("sleep timer: endOfChapter", after: mark))
            let paused = await app.waitForLine("sleep timer: paused at", after: mark, timeout: .seconds(40))
            try #require(paused, "the timer never paused: \(app.standardOutput[mark...])")
            try #require(await app.waitForLine("playback: paused", after: mark))
            let pausedAt = try #require(RunningApp.loggedValues("paused at ", in: app.standardOutput[mark...]).last)
            print("end-of-chapter sleep timer paused at \(pausedAt) s (chapter ends at 11 s)")
            #expect(abs(pausedAt - 11) <= 0.5, "paused at \(pausedAt) s, the chapter ends at 11 s")

            // The chapter under the play head is the last one announced.
            func inChapter(_ title: String) async -> Bool {
                await app.waitFor(timeout: .seconds(20)) {
                    $0.standardOutput.split(separator: "\n").last { $0.contains("chapter: ") }?.hasSuffix("chapter: \(title)") == true
                }
            }
            try await app.activate("seek-to", "[<5.0>]")
            #expect(await inChapter("Welcome"))
            try await app.activate("next-chapter")
            #expect(await inChapter("Keys to try"))
            // Just after a chapter's start, "previous" goes to the one before.
            try await app.activate("previous-chapter")
            #expect(await inChapter("Welcome"))
            mark = app.standardOutput.endIndex
            try await app.activate("next-chapter")
            try await app.activate("play-pause")
            #expect(await app.waitForLine("playback: ended", after: mark, timeout: .seconds(30)))
            // Entering a chapter is announced once, however many ticks follow.
            #expect(app.standardOutput[mark...].components(separatedBy: "chapter: Keys to try").count == 2,
                    "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a show's own speed and intro and outro skips apply to its episodes; a speed chosen while it plays is remembered")
    func perShowSettings() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            try await app.activate("show-speed", "[<(int64 1, 1.5)>]")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 0.0 s"))
            try await app.activate("show-skip", "[<(int64 1, 3.0, 4.0)>]")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 3.0 s, outro 4.0 s"))

            // "Tips" (13 s) starts after its 3 s intro at 1.5× and skips its last 4 s.
            let mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 2>]")
            #expect(await app.waitForLine("speed: 1.50", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitFor(timeout: .seconds(20)) {
                !$0.positions(after: mark).isEmpty
            })
            let first = try #require(app.positions(after: mark).first)
            #expect(first >= 3 && first < 5, "started at \(first) s")
            #expect(await app.waitForLine("skipping the outro", after: mark, timeout: .seconds(30)))
            #expect(await app.waitForLine("finished episode(episode 2)", after: mark))
            #expect(app.positions(after: mark).allSatisfy { $0 < 10.5 || $0 >= 12.9 },
                    "played into the outro: \(app.positions(after: mark))")

            // The player bar's speed, chosen while the show plays, becomes the show's.
            let again = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: again))
            try await app.activate("playback-speed", "[<2.0>]")
            #expect(await app.waitForLine("show 1 settings: speed 2.0", after: again), "\(app.standardOutput[again...])")
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(try await LibraryStore(directory: library).settings(for: ShowID(rawValue: 1))?.playbackSpeed == 2)
    }

    @Test("MPRIS: CanGoNext follows the queue, and Next plays the first queued episode")
    func mprisNext() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        func canGoNext() async throws -> String { try await app.mprisPlayerProperty("CanGoNext") }
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            let mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: mark))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await canGoNext().contains("false"))
            try await app.activate("queue-last", "[<int64 2>]")
            try #require(await app.waitForLine("queue: 1 episodes", after: mark))
            let deadline = ContinuousClock.now + .seconds(10)
            while try await !canGoNext().contains("true"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(try await canGoNext().contains("true"))
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Next")
            #expect(await app.waitForLine("next in the queue: episode 2", after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("sample/tips.opus", after: mark))
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}

extension RunningAppTests {
    @Test("Skip silence switched on from the speed menu's action while a file plays shortens its pauses; the time saved is counted")
    func skipsSilenceLive() async throws {
        let library = RunningApp.temporaryLibrary()
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-talk-\(UUID()).wav")
        try TalkLikeAudio(parts: [
            .talk(seconds: 2), .pause(seconds: 3), .talk(seconds: 1), .pause(seconds: 3), .talk(seconds: 1),
        ]).writeWAV(to: media)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        #expect(await app.waitForLine(": playing"))
        try await app.activate("skip-silence")
        #expect(await app.waitForLine("listening effects: skip silence on, voice boost off"))
        // The two pauses hold 5.4 s beyond the 0.3 s each keeps; most of the
        // first may have passed before the switch, all of the second is cut.
        let skipped = await app.waitFor(timeout: .seconds(20)) {
            RunningApp.loggedValues("silence skipped: ", in: $0.standardOutput).contains { $0 >= 2.5 }
        }
        _ = try await app.quit()
        #expect(skipped, "no skipped silence logged: \(app.standardOutput.suffix(2000))")
    }
}
