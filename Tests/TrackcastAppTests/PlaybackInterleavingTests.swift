import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// Random interleavings of what a user, the desktop and scripts do to the
/// running app at once, through its outside surfaces only: the app's
/// actions on D-Bus and MPRIS, sent back to back without waiting. After
/// each sequence the window's player bar, the owner of what plays, the
/// player and MPRIS must come to name the same load and agree on its state,
/// and nothing may still run for a load no longer on show.
/// Part of "The running app", which runs one app at a time.
///
/// TRACKCAST_INTERLEAVINGS sets how many sequences (1,000 by default);
/// TRACKCAST_INTERLEAVING_SEED replays a failure (the seed is in every
/// failure message).
extension RunningAppTests {
    /// One thing sent to the app, as gdbus sends it.
    private enum Command: CustomStringConvertible {
        case action(String, String)
        case mpris(String, [String])
        case setMPRIS(String, String)

        var description: String {
            switch self {
            case .action(let name, let parameter): "action \(name) \(parameter)"
            case .mpris(let method, let arguments): "MPRIS \(method) \(arguments.joined(separator: " "))"
            case .setMPRIS(let property, let value): "MPRIS set \(property) \(value)"
            }
        }

        func send(to app: RunningApp) async throws {
            switch self {
            case .action(let name, let parameter):
                _ = try await RunningApp.activation(name, parameter)
            case .mpris(let method, let arguments):
                _ = try await RunningApp.gdbusCall(RunningApp.mprisBusName, "/org/mpris/MediaPlayer2",
                                                   "org.mpris.MediaPlayer2.Player.\(method)", arguments)
            case .setMPRIS(let property, let value):
                _ = try await app.mpris("org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", property, value)
            }
        }

        /// One of the commands a user, a media key or a script sends; the
        /// sample show's three episodes are 1, 2 and 3.
        static func random(trackID: String?, using random: inout SplitMix64) -> Command {
            let episode = Int.random(in: 1...3, using: &random)
            switch Int.random(in: 0..<22, using: &random) {
            case 0, 1: return .action("play-episode", "[<int64 \(episode)>]")
            case 2, 3: return .action("play-pause", "[]")
            case 4: return .action("stop", "[]")
            case 5: return .action("play-next", "[]")
            case 6: return .action("seek-to", "[<\(Double(Int.random(in: 0...140, using: &random)) / 10)>]")
            case 7: return .action(Bool.random(using: &random) ? "seek-forward" : "seek-backward", "[]")
            case 8: return .action(Bool.random(using: &random) ? "queue-last" : "queue-next", "[<int64 \(episode)>]")
            case 9: return .action("queue-clear", "[]")
            case 10: return .action("sleep-timer", ["[<'1'>]", "[<'off'>]", "[<'end-of-episode'>]"].randomElement(using: &random)!)
            case 11: return .action("playback-speed", ["[<1.0>]", "[<1.5>]", "[<0.8>]"].randomElement(using: &random)!)
            case 12, 13: return .mpris(["Play", "Pause", "PlayPause"].randomElement(using: &random)!, [])
            case 14: return .mpris("Stop", [])
            case 15: return .mpris("Next", [])
            case 16: return .mpris("Previous", [])
            case 17: return .mpris("Seek", ["\(Int64.random(in: -8...8, using: &random) * 1_000_000)"])
            case 18: return .mpris("SetPosition", ["'\(trackID ?? "/org/mpris/MediaPlayer2/TrackList/NoTrack")'",
                                                   "\(Int64.random(in: 0...15, using: &random) * 1_000_000)"])
            case 19: return .setMPRIS("Rate", ["<1.0>", "<1.25>", "<0.0>"].randomElement(using: &random)!)
            case 20: return .action("seek-episode", "(<(int64 \(episode), \(Double(Int.random(in: 0...12, using: &random))))>,)")
            default: return .setMPRIS("Volume", "<\(Double(Int.random(in: 0...10, using: &random)) / 10)>")
            }
        }
    }

    /// The app at one moment, as each layer says: the bar, the owner, the player and MPRIS.
    private struct Snapshot: CustomStringConvertible {
        var bar: String?
        var owner: (load: String, phase: String, title: String)?
        var player: (load: String, phase: String)?
        var mprisStatus: String?
        var mprisTrack: String?
        var mprisTitle: String?
        /// What still runs, as the app last said ("alive: load #12, item tasks 3, …").
        var alive: String?

        init(_ app: RunningApp) async {
            let output = app.standardOutput
            let lines = output.split(separator: "\n").suffix(400)
            bar = Self.last("player bar: ", in: lines)
            if let owner = Self.last("now playing: ", in: lines),
               let space = owner.firstIndex(of: " "), let bar = owner.range(of: " | ") {
                self.owner = (String(owner[..<space]), String(owner[owner.index(after: space)..<bar.lowerBound]),
                              String(owner[bar.upperBound...]))
            }
            player = lines.reversed().lazy.compactMap(Self.playerPhase).first
            alive = Self.last("alive: ", in: lines)
            let all = try? await app.mpris("org.freedesktop.DBus.Properties.GetAll", "org.mpris.MediaPlayer2.Player")
            let text = all?.standardOutput ?? ""
            mprisStatus = text.firstMatch(of: /'PlaybackStatus': <'([A-Za-z]+)'>/).map { String($0.1) }
            mprisTrack = text.firstMatch(of: /'mpris:trackid': <objectpath '([^']+)'>/).map { String($0.1) }
            mprisTitle = text.firstMatch(of: /'xesam:title': <'([^']*)'>/).map { String($0.1) }
        }

        private static func last(_ prefix: String, in lines: ArraySlice<Substring>) -> String? {
            for line in lines.reversed() {
                if let range = line.range(of: prefix) { return String(line[range.upperBound...]) }
            }
            return nil
        }

        /// A phase the controller sent its store: "playback #12: paused".
        private static func playerPhase(_ line: Substring) -> (String, String)? {
            guard let range = line.range(of: "playback #") else { return nil }
            let rest = line[range.upperBound...]
            guard let colon = rest.range(of: ": ") else { return nil }
            let phase = String(rest[colon.upperBound...])
            let phases = ["idle", "loading", "ready", "ready (live)", "playing", "paused", "ended"]
            guard phases.contains(phase) || phase.hasPrefix("buffering ") || phase.hasPrefix("failed: ") else { return nil }
            return ("#" + rest[..<colon.lowerBound], phase)
        }

        /// What is wrong with the app's agreement with itself; nil when the layers agree.
        var disagreement: String? {
            guard let owner else { return "the owner said nothing" }
            if owner.phase.hasPrefix("failed") { return "a sample episode failed" }
            let active = ["loading", "playing"].contains(owner.phase) || owner.phase.hasPrefix("buffering")
            guard bar == "hidden" ? owner.title == "-" : bar?.hasPrefix("\(owner.title) | \(active ? "Pause" : "Play") | ") == true
            else { return "the bar does not show the owner's item and phase" }
            let status = switch owner.phase {
            case "playing": "Playing"
            case "paused", "ready": "Paused"
            default: owner.phase.hasPrefix("buffering") ? "Playing" : "Stopped"
            }
            guard mprisStatus == status else { return "MPRIS's status is not the owner's phase" }
            if owner.load == "none" {
                guard mprisTrack?.hasSuffix("/NoTrack") == true else { return "MPRIS names a track while nothing is loaded" }
                return leftOver(loaded: false)
            }
            guard let player, player.load == owner.load, player.phase == owner.phase else {
                return "the player's last state is not the owner's"
            }
            guard mprisTrack?.hasSuffix("/Track/\(owner.load.dropFirst())") == true else { return "MPRIS names another load" }
            guard mprisTitle == owner.title else { return "MPRIS names another title" }
            return leftOver(loaded: true)
        }

        /// What runs that should not: a task, observer, probe or timer of an
        /// item no longer on show, or more than one of each for the one that is.
        private func leftOver(loaded: Bool) -> String? {
            guard let alive, let report = alive.wholeMatch(of: /load (\S+), item tasks (\d+), observer tasks (\d+), probes (\d+), sleep timer (on|off) with (\d+) tasks/),
                  let itemTasks = Int(report.2), let observerTasks = Int(report.3), let probes = Int(report.4),
                  let timerTasks = Int(report.6) else { return "the app has not said what still runs" }
            guard String(report.1) == owner?.load else { return "what still runs was last said for another load" }
            if loaded {
                guard itemTasks == 3 else { return "\(itemTasks) tasks follow the item, not its three streams" }
                guard observerTasks <= 2 else { return "\(observerTasks) observer tasks for one item" }
                guard probes <= 1 else { return "\(probes) probes for one item" }
            } else {
                guard itemTasks == 0, observerTasks == 0, probes == 0 else { return "tasks outlive the stopped item" }
            }
            guard timerTasks <= (report.5 == "on" ? 1 : 0) else { return "\(timerTasks) sleep timer tasks with the timer \(report.5)" }
            return nil
        }

        var description: String {
            "bar: \(bar ?? "-"); owner: \(owner.map { "\($0.load) \($0.phase) | \($0.title)" } ?? "-"); "
                + "player: \(player.map { "\($0.load) \($0.phase)" } ?? "-"); "
                + "MPRIS: \(mprisStatus ?? "-") \(mprisTrack ?? "-") \(mprisTitle ?? "-"); alive: \(alive ?? "-")"
        }
    }

    /// Polls until the layers agree (up to 15 s: the machine may be busy); the last snapshot either way.
    private static func settle(_ app: RunningApp) async -> Snapshot {
        var snapshot = await Snapshot(app)
        let deadline = ContinuousClock.now + .seconds(15)
        while snapshot.disagreement != nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
            snapshot = await Snapshot(app)
        }
        return snapshot
    }

    /// The bar's clock ("0:07" of "0:07 / 0:16").
    private static func clock(_ snapshot: Snapshot) -> Substring? {
        snapshot.bar?.components(separatedBy: " | ").last.map { $0.prefix { $0 != " " } }
    }

    /// Plays the first sample episode and waits until MPRIS, published from the first play on, answers.
    private static func startPlaying(_ app: RunningApp) async throws {
        try await app.activate("play-episode", "[<int64 1>]")
        let published = await settle(app)
        try #require(published.disagreement == nil && published.mprisStatus != nil, "\(published)")
    }

    @Test("random interleavings of actions and MPRIS calls: the bar, the owner, the player and MPRIS always come to agree; the clock moves while playing; nothing outlives its load; what is saved at quit is where it paused")
    func randomInterleavings() async throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["TRACKCAST_INTERLEAVINGS"].flatMap { Int($0) } ?? 1000
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_INTERLEAVING_SEED")
        var random = SplitMix64(seed: seed)
        let replay = "seed \(seed) (TRACKCAST_INTERLEAVING_SEED=\(seed) to replay)"
        print("interleavings: \(count) sequences, \(replay)")
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }

        var app = try await RunningApp.launch(library: library)
        try await app.openSampleShow()
        try await Self.startPlaying(app)
        var (clockChecks, restarts, commandsSent) = (0, 0, 0)
        var snapshot = await Snapshot(app)
        do {
            for sequence in 0..<count {
                var sent: [Command] = []
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let command = Command.random(trackID: snapshot.mprisTrack, using: &random)
                    sent.append(command)
                    try await command.send(to: app)
                }
                commandsSent += sent.count
                snapshot = await Self.settle(app)
                let context = "sequence \(sequence) of \(replay): \(sent.map(\.description).joined(separator: "; "))"
                try #require(snapshot.disagreement == nil, "\(snapshot.disagreement ?? ""): \(snapshot) after \(context)")

                if sequence % 10 == 9, snapshot.owner?.phase == "playing", let before = Self.clock(snapshot) {
                    clockChecks += 1
                    let deadline = ContinuousClock.now + .seconds(5)
                    var after = snapshot
                    while ContinuousClock.now < deadline {
                        after = await Snapshot(app)
                        if Self.clock(after) != before || after.owner?.phase != "playing" { break }
                        try await Task.sleep(for: .milliseconds(200))
                    }
                    #expect(Self.clock(after) != before || after.owner?.phase != "playing",
                            "the clock stayed at \(before) while playing: \(after) after \(context)")
                }

                if sequence % 250 == 249 {
                    app = try await Self.pauseQuitAndReopen(app, library: library, context: context)
                    restarts += 1
                    snapshot = await Snapshot(app)
                }
            }
        } catch {
            _ = try? await app.quit()
            throw error
        }
        print("interleavings: \(count) sequences, \(commandsSent) commands, \(clockChecks) clock checks, \(restarts) restarts")
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }

    /// Pauses what plays, quits over MPRIS, checks that the library saved
    /// where it paused, and starts the app again.
    private static func pauseQuitAndReopen(_ app: RunningApp, library: URL, context: String) async throws -> RunningApp {
        try await app.activate("play-episode", "[<int64 2>]")
        var playing = await settle(app)
        let deadline = ContinuousClock.now + .seconds(15)
        while playing.owner?.phase != "playing", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            playing = await settle(app)
        }
        try #require(playing.owner?.phase == "playing", "episode 2 did not play: \(playing) after \(context)")
        // Away from its end (13 s), where a pause would count it as finished and save no position.
        let seekMark = app.standardOutput.endIndex
        try await app.activate("seek-to", "[<3.0>]")
        try #require(await app.waitFor(timeout: .seconds(10)) { app in
            app.positions(after: seekMark).contains { $0 >= 3 && $0 < 8 }
        }, "no tick after seeking to 3 s: \(app.standardOutput[seekMark...])")
        let mark = app.standardOutput.endIndex
        _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Pause")
        try #require(await app.waitForLine("paused at ", after: mark), "no pause: \(app.standardOutput[mark...])")
        let pausedAt = try #require(RunningApp.loggedValues("paused at ", in: app.standardOutput[mark...]).last)
        _ = try await app.mpris("org.mpris.MediaPlayer2.Quit")
        let ended = await app.finish(timeout: .seconds(30))
        #expect(ended.status == 0 && !ended.timedOut, "quitting over MPRIS: \(ended.standardError)")
        let saved = try await LibraryStore(directory: library).position(for: .episode(EpisodeID(rawValue: 2)))?.position
        #expect(saved.map { abs($0 - pausedAt) < 0.6 } == true, "paused at \(pausedAt) s, saved \(saved ?? -1) s after \(context)")

        let reopened = try await RunningApp.launch(library: library)
        try await startPlaying(reopened)
        return reopened
    }
}
