import Foundation
import TestSupport
import Testing

/// The app SIGKILLed at random moments while it plays a library episode,
/// restarted on the same library each time, as issue #9's crash-safety
/// bullet asks for playback. Resume positions are kept only by the app
/// (`ResumeTracker`; `trackcast play` keeps none), so the window is what is
/// killed. Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    static let playbackKills = 20
    /// How often the app writes positions while playing (`ResumeTracker.flushInterval`).
    static let flushInterval = 5.0
    /// Beyond the flush interval: a position is recorded only at a tick a
    /// second or more after the last recording, so a flush can come up to a
    /// second late, and the write itself takes a moment on a busy machine.
    static let flushTolerance = 2.0
    /// Logged positions are rounded to a tenth of a second; saved ones are not.
    static let loggingRounding = 0.1

    /// Where the kill lands.
    enum KillMoment: CaseIterable, CustomStringConvertible {
        /// 1–7 s after the episode started playing, or 8.5–9.5 s (past a flush).
        case playing
        /// Within 0.4 s of asking it to play, while it loads.
        case loading
        /// Within 0.5 s of a seek forward, sent after 1–3 s of playing.
        case seeking
        /// Within 0.3 s of pausing, after 1–4 s of playing.
        case paused

        var description: String {
            switch self {
            case .playing: "playing"
            case .loading: "loading"
            case .seeking: "seeking"
            case .paused: "paused"
            }
        }
    }

    /// Six minutes of Opus and a feed file naming it, in a folder of their own.
    private static func episodeFeed() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-kill-feed-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=3600", "samplesperbuffer=4800", "wave=sine", "!",
            "audio/x-raw,rate=48000,channels=1", "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!",
            "filesink", "location=\(folder.appendingPathComponent("long.opus").path)",
        ], timeout: .seconds(120))
        try #require(made.status == 0, "gst-launch failed: \(made.standardError)")
        let feed = folder.appendingPathComponent("feed.xml")
        try Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Killed While Playing</title>
              <item><title>Long</title><guid>long</guid><enclosure url="long.opus" type="audio/ogg"/></item>
            </channel></rss>
            """.utf8).write(to: feed)
        return feed
    }

    /// SQLite's verdict and the saved resume position of episode 1, read by
    /// the sqlite3 tool opening the file read-only, as another process would,
    /// without checkpointing or otherwise tidying what the killed app left.
    private static func inspect(_ database: URL) async throws -> (integrity: String, saved: Double?) {
        func query(_ sql: String) async throws -> String {
            let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                                    arguments: ["-readonly", database.path, sql])
            try #require(result.status == 0, "sqlite3: \(result.standardError)")
            return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let integrity = try await query("PRAGMA integrity_check;")
        let saved = try await query("SELECT position FROM resume_positions WHERE episode_id = 1;")
        return (integrity, Double(saved))
    }

    /// Positions the app reported reaching, in order: position ticks and
    /// where it paused.
    private static func reachedPositions(in log: String) -> [Double] {
        log.split(separator: "\n").flatMap {
            RunningApp.loggedValues("position: ", in: $0) + RunningApp.loggedValues("paused at ", in: $0)
        }
    }

    /// A killed app's bus name is released when the bus notices the closed
    /// connection; a launch before that would hand over to the dead instance.
    private static func waitForBusNameReleased() async throws -> Bool {
        for _ in 0..<100 {
            let owner = try await RunningApp.gdbusCall("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                       "org.freedesktop.DBus.NameHasOwner", RunningApp.busName)
            if owner.standardOutput.contains("false") { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("SIGKILL at random moments of playback, again and again: the library stays intact, the saved position is within the flush interval of the last one reached and never ahead of it, and the next start resumes there")
    func killedWhilePlaying() async throws {
        let feed = try await Self.episodeFeed()
        defer { try? FileManager.default.removeItem(at: feed.deletingLastPathComponent()) }
        let cli = try LibraryCLI()
        #expect(try await cli.run(["subscribe", feed.path]).status == 0)
        var generator = SystemRandomNumberGenerator()
        var resumedStarts = 0
        var lags: [Double] = []
        var savedBefore: Double?
        var playedPastAFlush = 0

        for iteration in 0..<Self.playbackKills {
            let moment = KillMoment.allCases[iteration % KillMoment.allCases.count]
            let context = "kill \(iteration) (\(moment))"
            let app = try await RunningApp.launch(library: cli.library)
            // Where this run started: as far as it is known to have got if it never reports a position.
            let start = savedBefore ?? 0
            var seekTargets: [Double] = []
            try await app.activate("play-episode", "[<int64 1>]")
            if moment == .loading {
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &generator)))
            } else {
                let playing = await app.waitFor(timeout: .seconds(20)) { !$0.positions().isEmpty }
                try #require(playing, "\(context): the episode did not play: \(app.standardOutput) \(app.standardError)")
                let first = try #require(app.positions().first)
                // The first tick may come half a second after the start, later on a busy machine.
                #expect(first >= start - Self.loggingRounding && first <= start + 1.5,
                        "\(context): saved \(start) s, resumed at \(first) s")
                resumedStarts += 1
                switch moment {
                case .playing:
                    // Every other time past a flush interval and its slack, so
                    // that a save made while playing, not only by a seek or a
                    // pause, is what keeps the position.
                    let pastAFlush = (iteration / KillMoment.allCases.count).isMultiple(of: 2)
                    try await Task.sleep(for: .milliseconds(Int.random(in: pastAFlush ? 8_500...9_500 : 1_000...7_000,
                                                                         using: &generator)))
                case .seeking:
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1_000...3_000, using: &generator)))
                    // Forward only: after a kill just behind a backward seek the
                    // last position logged would still be the one sought away from.
                    let target = (app.positions().last ?? first) + Double(Int.random(in: 5...20, using: &generator))
                    seekTargets.append(target)
                    try await app.activate("seek-to", "[<\(target)>]")
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...500, using: &generator)))
                case .paused:
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1_000...4_000, using: &generator)))
                    try await app.activate("play-pause")
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...300, using: &generator)))
                case .loading:
                    break
                }
            }
            kill(app.pid, SIGKILL)
            // Everything the app printed, it printed before it died.
            let log = await app.finish(timeout: .seconds(10)).standardOutput
            try #require(try await Self.waitForBusNameReleased(), "\(context): the bus name outlived the app")

            let (integrity, saved) = try await Self.inspect(cli.database)
            #expect(integrity == "ok", "\(context): \(integrity)")
            let reached = [start] + Self.reachedPositions(in: log)
            let lastReached = reached.last ?? start
            let furthest = (reached + seekTargets).max() ?? start
            // Played on, with nothing else to save it, past one flush interval
            // (and its slack): this run must have written a position.
            if moment == .playing, lastReached - start > Self.flushInterval + Self.flushTolerance {
                playedPastAFlush += 1
                #expect(saved.map { $0 > start } == true,
                        "\(context): played from \(start) s to \(lastReached) s and saved \(saved.map { "\($0) s" } ?? "nothing")")
            }
            let kept = saved ?? 0
            #expect(kept >= lastReached - Self.flushInterval - Self.flushTolerance,
                    "\(context): saved \(saved.map { "\($0) s" } ?? "nothing"), last reached \(lastReached) s")
            #expect(kept <= furthest + Self.loggingRounding,
                    "\(context): saved \(kept) s, ahead of everything reached (\(furthest) s)")
            lags.append(lastReached - kept)
            print("FIGURE playback kill \(iteration) \(moment): last reached \(lastReached) s, saved \(saved.map { "\($0) s" } ?? "nothing")")
            savedBefore = saved
        }
        #expect(playedPastAFlush >= 2,
                "only \(playedPastAFlush) kills came after playing past a flush interval: saving while playing was hardly tested")
        print("FIGURE playback kills \(Self.playbackKills), resumed starts checked \(resumedStarts), "
              + "played past a flush interval \(playedPastAFlush), "
              + "lag of the saved position behind the last reached: max \(lags.max() ?? 0) s, "
              + "mean \(lags.reduce(0, +) / Double(max(lags.count, 1))) s")
    }
}
