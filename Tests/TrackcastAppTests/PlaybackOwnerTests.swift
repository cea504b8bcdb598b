import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// The one owner of what plays, reached from outside the process the ways
/// the desktop reaches it: MPRIS, the app's actions on D-Bus, signals.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// What the player bar said it shows ("title | Pause | 0:04 / 1:00"), in order, after `offset`.
    static func playerBarReports(_ app: RunningApp, after offset: String.Index) -> [String] {
        let output = app.standardOutput
        return output[offset...].split(separator: "\n").compactMap { line in
            line.range(of: "player bar: ").map { String(line[$0.upperBound...]) }
        }
    }

    /// Waits until the bar shows Pause with its clock at two different
    /// positions after `offset`: playing, the clock moving.
    static func barShowsPlaying(_ app: RunningApp, after offset: String.Index) async -> Bool {
        await app.waitFor(timeout: .seconds(20)) { app in
            let clocks = playerBarReports(app, after: offset).compactMap { report in
                report.range(of: " | Pause | ").map { report[$0.upperBound...].prefix { $0 != " " } }
            }
            return Set(clocks).count >= 2
        }
    }

    static func remove(_ files: URL...) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// Whether MPRIS's PlaybackStatus came to be `status` within ten seconds.
    static func mprisStatusBecomes(_ status: String, _ app: RunningApp) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if (try? await app.mprisPlayerProperty("PlaybackStatus"))?.contains("'\(status)'") == true { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test("MPRIS Stop, then play-pause: the same item plays on from where it stopped, and the window, MPRIS and the resume record follow it")
    func stopThenPlay() async throws {
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        defer { Self.remove(library, media) }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitFor(timeout: .seconds(30)) { $0.positions().contains { $0 >= 3 } },
                         "the file did not play: \(app.standardOutput)")
            #expect(app.standardOutput.contains("player bar artwork: audio-x-generic-symbolic")
                    && !app.standardOutput.contains("player bar artwork: video-"), "a sound file without artwork shows a sound icon")
            let mark = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Stop")
            try #require(await app.waitForLine("stopped at ", after: mark), "\(app.standardOutput[mark...])")
            let stoppedAt = try #require(RunningApp.loggedValues("stopped at ", in: app.standardOutput[mark...]).last)
            #expect(await Self.mprisStatusBecomes("Stopped", app))
            #expect(Self.playerBarReports(app, after: mark).last?.contains(" | Play | ") == true,
                    "\(Self.playerBarReports(app, after: mark))")

            let playMark = app.standardOutput.endIndex
            try await app.activate("play-pause")
            #expect(await Self.barShowsPlaying(app, after: playMark), "the bar: \(Self.playerBarReports(app, after: playMark))")
            let positions = app.positions(after: playMark)
            #expect(positions.first.map { abs($0 - stoppedAt) <= 1.5 } == true,
                    "stopped at \(stoppedAt) s, played again from \(positions)")
            #expect(await Self.mprisStatusBecomes("Playing", app))

            // The resume record follows the item played again.
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.positions(after: playMark).contains { $0 >= stoppedAt + 2 } })
            let pauseMark = app.standardOutput.endIndex
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at ", after: pauseMark))
            let pausedAt = try #require(RunningApp.loggedValues("paused at ", in: app.standardOutput[pauseMark...]).last)
            let saved = await Self.savedPosition(library, .uri(media)) { abs($0 - pausedAt) < 0.6 }
            #expect(saved.map { abs($0 - pausedAt) < 0.6 } == true, "paused at \(pausedAt) s, saved \(saved ?? -1) s")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("the last sound output going away pauses, says so in a toast, and MPRIS Play goes on from there once an output is back")
    func lastOutputGoneAtTheApp() async throws {
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        defer { Self.remove(library, media) }
        let pulse = try await PulseAudioServer(sinks: ["headphones"])
        defer { pulse.stop() }
        let app = try await RunningApp.launch(library: library, arguments: [media.path],
                                              environment: ["TRACKCAST_AUDIO_SINK": "pulsesink server=\(pulse.address)"])
        let result = try await app.quitting { app in
            try #require(await app.waitFor(timeout: .seconds(30)) { $0.positions().contains { $0 >= 2 } },
                         "the file did not play: \(app.standardOutput)")
            let mark = app.standardOutput.endIndex
            try await pulse.pactl("unload-module", try await pulse.module(ofSink: "headphones"))
            #expect(await app.waitForLine("toast: Paused: the sound output was disconnected", after: mark),
                    "\(app.standardOutput[mark...])")
            #expect(await Self.mprisStatusBecomes("Paused", app))
            #expect(!app.standardOutput[mark...].contains("toast: Cannot play"), "\(app.standardOutput[mark...])")
            #expect(Self.playerBarReports(app, after: mark).last?.contains(" | Play | ") == true,
                    "\(Self.playerBarReports(app, after: mark))")
            let pausedAt = app.positions().last ?? 0

            try await pulse.pactl("load-module", "module-null-sink", "sink_name=speakers")
            let playMark = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Play")
            #expect(await Self.barShowsPlaying(app, after: playMark), "the bar: \(Self.playerBarReports(app, after: playMark))")
            #expect(await Self.mprisStatusBecomes("Playing", app))
            let positions = app.positions(after: playMark)
            #expect(positions.first.map { $0 >= pausedAt - 1 && $0 <= pausedAt + 1.5 } == true,
                    "paused at \(pausedAt) s, played again from \(positions)")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a position set over MPRIS while paused moves the window's clock and is where the episode resumes after quitting")
    func setPositionWhilePausedIsKept() async throws {
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        defer { Self.remove(library, media) }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitFor(timeout: .seconds(30)) { $0.positions().contains { $0 >= 3 } })
            let mark = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Pause")
            try #require(await app.waitForLine("paused at ", after: mark))
            let metadata = try await app.mprisPlayerProperty("Metadata")
            let trackID = try #require(metadata.firstMatch(of: /objectpath '([^']+)'/)?.1, "no trackid in \(metadata)")
            let set = try await app.mpris("org.mpris.MediaPlayer2.Player.SetPosition", "'\(trackID)'", "40000000")
            #expect(set.status == 0, "\(set.standardError)")
            #expect(await app.waitFor(timeout: .seconds(10)) { app in
                Self.playerBarReports(app, after: mark).last?.hasPrefix("\(media.lastPathComponent) | Play | 0:40") == true
            }, "the bar: \(Self.playerBarReports(app, after: mark))")
        }
        #expect(result.status == 0 && !result.timedOut)
        let saved = await Self.savedPosition(library, .uri(media)) { $0 >= 39.5 }
        #expect(saved.map { abs($0 - 40) < 0.5 } == true, "saved \(saved ?? -1) s, not 40 s")
    }

    @Test("SIGTERM and SIGINT quit as Ctrl+Q does: the position reached is saved, not the last flush's", arguments: [SIGTERM, SIGINT])
    func signalSavesPosition(signal: Int32) async throws {
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        defer { Self.remove(library, media) }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        // Between two flushes (every 5 s) as far as possible: 8 s in, the last flush was about 3 s ago.
        let played = await app.waitFor(timeout: .seconds(40)) { $0.positions().contains { $0 >= 8 } }
        let last = app.positions().last ?? 0
        kill(app.pid, signal)
        let result = await app.finish(timeout: .seconds(20))
        try #require(played, "the file did not play: \(app.standardOutput)")
        #expect(result.status == 0 && !result.timedOut, "status \(result.status): \(result.standardError)")
        let saved = await Self.savedPosition(library, .uri(media)) { $0 >= last - 0.1 }
        #expect(saved.map { $0 >= last - 0.1 && $0 <= last + 1 } == true, "last tick at \(last) s, saved \(saved ?? -1) s")
    }

    @Test("a failure worth retrying (HTTP 503) offers Retry, which plays the same item; a 404 offers nothing")
    func retryAfterServerError() async throws {
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        let server = try TestHTTPServer()
        defer {
            server.stop()
            Self.remove(library, media)
        }
        server.route("/gone.opus", .status(404))
        server.route("/busy.opus", .status(503))
        let app = try await RunningApp.launch(library: library, arguments: [server.url("/gone.opus")])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("toast: Cannot play"), "\(app.standardOutput)")
            #expect(!app.standardOutput.contains("[Retry]"), "a 404 offered Retry: \(app.standardOutput)")

            var mark = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.OpenUri", "'\(server.url("/busy.opus"))'")
            try #require(await app.waitForLine("[Retry]", after: mark), "\(app.standardOutput[mark...])")
            server.route("/busy.opus", .serve(try Data(contentsOf: media), contentType: "audio/ogg"))
            mark = app.standardOutput.endIndex
            try await app.activate("retry")
            #expect(await Self.barShowsPlaying(app, after: mark), "the bar: \(Self.playerBarReports(app, after: mark))")
            #expect(Self.playerBarReports(app, after: mark).allSatisfy { $0.hasPrefix("busy.opus") })
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("MPRIS Next twice at once takes the queue's first two episodes and plays the second; the queue is left empty")
    func nextTwiceTakesTwo() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.playSampleEpisode(1)
            try await app.activate("queue-last", "[<int64 2>]")
            try await app.activate("queue-last", "[<int64 3>]")
            try #require(await app.waitForLine("queue order: 2 3"), "\(app.standardOutput)")
            let mark = app.standardOutput.endIndex
            // Both sent at once, from two processes.
            let next = "dbus-send --session --print-reply --dest=\(RunningApp.mprisBusName) /org/mpris/MediaPlayer2 org.mpris.MediaPlayer2.Player.Next"
            _ = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "\(next) & \(next); wait"])
            #expect(await app.waitForLine("queue: 0 episodes", after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("sample/video.webm", after: mark), "\(app.standardOutput[mark...])")
            try await Task.sleep(for: .seconds(1))
            let taken = app.standardOutput[mark...].split(separator: "\n").filter { $0.contains("next in the queue: ") }
            #expect(taken.count == 2 && taken[0].hasSuffix("episode 2") && taken[1].hasSuffix("episode 3"), "\(taken)")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("the latest command wins: a video still reading its subtitles when another file is opened does not replace it when it is done")
    func latestPlayWins() async throws {
        let library = RunningApp.temporaryLibrary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-latest-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let audio = try await Self.minuteOfAudio()
        defer { Self.remove(library, folder, audio) }
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/sample/video.webm")
        let film = folder.appendingPathComponent("film.webm")
        try FileManager.default.copyItem(at: sample, to: film)
        // Subtitles of nearly the largest size read: checking them takes a
        // while, as on a slow disk, and the other file is opened meanwhile.
        var subtitles = ""
        for cue in 0..<120_000 {
            subtitles += "\(cue + 1)\n00:00:\(String(format: "%02d", cue % 60)),000 --> 00:00:\(String(format: "%02d", cue % 60)),500\nA line of dialogue said \(cue)\n\n"
        }
        try Data(subtitles.utf8).write(to: folder.appendingPathComponent("film.srt"))

        let app = try await RunningApp.launch(library: library, arguments: [film.path], until: .windowShown)
        let result = try await app.quitting { app in
            let handedOver = try await ChildProcess.run(trackcast, arguments: ["--library", library.path, audio.path],
                                                        timeout: .seconds(15))
            #expect(handedOver.status == 0)
            try #require(await app.waitForLine("subtitles: 120000 cues in film.srt", timeout: .seconds(60)), "\(app.standardOutput)")
            try await Task.sleep(for: .seconds(1))
            let output = app.standardOutput
            let audioPlays = try #require(output.range(of: "playing \(audio.absoluteString)"), "\(output)")
            let checked = try #require(output.range(of: "subtitles: 120000 cues"))
            try #require(audioPlays.lowerBound < checked.lowerBound,
                         "the subtitles were checked before the other file came: nothing raced (\(output))")
            #expect(output.contains("dropped: request"), "\(output)")
            #expect(!output.contains("playing \(film.absoluteString)"), "the older request played: \(output)")
            let owner = output.split(separator: "\n").last { $0.contains("now playing: ") }
            #expect(owner?.hasSuffix(audio.lastPathComponent) == true, "\(owner ?? "")")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("times from D-Bus callers that no Duration holds (1e300 s, -1e300 s) are clamped: seek-to, seek-episode and show-skip leave the app running, and the show still plays")
    func hugeTimesOverDBus() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.playSampleEpisode(2)
            try await app.activate("seek-to", "[<1e300>]")
            try await app.activate("seek-to", "[<-1e300>]")
            try await app.activate("show-skip", "[<(int64 1, 1e300, -1e300)>]")
            try await app.activate("seek-episode", "[<(int64 1, 1e300)>]")
            try #require(await app.waitForLine("show 1 settings"), "\(app.standardOutput) \(app.standardError)")
            let mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 3>]")
            #expect(await app.waitForLine("sample/video.webm", after: mark), "\(app.standardOutput[mark...]) \(app.standardError)")
            #expect(app.isRunning)
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("the desktop session ending saves where playback is: QueryEndSession while playing saves it, and EndSession ends the app with the position reached saved")
    func sessionEndSaves() async throws {
        // Owned before the app starts, as GNOME's session manager would be: the app registers with it at start-up.
        let session = try await MainActor.run { try SessionManagerStandIn() }
        defer { Task { @MainActor in session.stop() } }
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        defer { Self.remove(library, media) }
        let deadline = ContinuousClock.now + .seconds(10)
        while await !session.ownsName, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try #require(await session.ownsName, "the stand-in never got org.gnome.SessionManager")
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        try #require(await app.waitFor(timeout: .seconds(40)) { $0.positions().contains { $0 >= 7 } }, "\(app.standardOutput)")
        #expect(await session.registeredClients == ["org.trackcast.Trackcast"])

        // Between two periodic flushes as far as possible: one came at about 5 s.
        let queried = app.positions().last ?? 0
        let mark = app.standardOutput.endIndex
        await session.endSession("QueryEndSession")
        try #require(await app.waitForLine("session ending: saving", after: mark), "\(app.standardOutput[mark...])")
        // Within a second: the periodic flush, 5 s apart, must not be what saved it.
        try await Task.sleep(for: .seconds(1))
        let saved = try await LibraryStore(directory: library).position(for: .uri(media))?.position
        #expect(saved.map { $0 >= queried - 0.1 } == true, "playing at \(queried) s when asked, saved \(saved ?? -1) s")
        #expect(app.isRunning, "the session only asked; the app ends at EndSession")

        try #require(await app.waitFor(timeout: .seconds(20)) { $0.positions().contains { $0 >= queried + 3 } })
        let last = app.positions().last ?? 0
        await session.endSession("EndSession")
        let result = await app.finish(timeout: .seconds(20))
        #expect(result.status == 0 && !result.timedOut, "\(result.standardError)")
        #expect(result.standardOutput.contains("shutdown: position saved"), "\(result.standardOutput)")
        let atEnd = try await LibraryStore(directory: library).position(for: .uri(media))?.position
        #expect(atEnd.map { $0 >= last - 0.1 && $0 <= last + 1.5 } == true, "last tick at \(last) s, saved \(atEnd ?? -1) s")
    }
}
