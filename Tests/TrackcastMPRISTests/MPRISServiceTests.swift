import Foundation
import TestSupport
import Testing
import TrackcastCore
import TrackcastMPRIS
import TrackcastPlayback

/// MPRIS from the outside: a real player playing a long tone and the sample show's episodes
/// into a synchronised fakesink, published on this test's session bus, and
/// driven by `playerctl` and `gdbus`, the clients a desktop uses. The bus
/// name carries an instance suffix, as the specification allows, so these
/// tests never meet a running app.
@MainActor
@Suite("MPRIS", .needs("playerctl", "gdbus", "ffmpeg"), .serialized)
struct MPRISServiceTests {
    private static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sample")
    private let instance = "test\(getpid())x\(UInt32.random(in: 0...UInt32.max))"
    private var busName: String { MPRISService.busName(instance: instance) }
    private var playerName: String { "\(AppIdentity.id).\(instance)" }

    private enum Episode {
        case long
        /// The sample show's first episode, with its tags.
        case sampleWelcome
    }

    private struct Fixture {
        let player: PlayerController
        let host: QueueHost
        let service: MPRISService
    }

    /// Five minutes of tone, made once for the suite. The sample episodes
    /// last 16 s, which a loaded machine can spend before a test's first
    /// call (CI once did: the pause came after the end, and the status
    /// stayed Stopped); only the metadata test needs their tags.
    private static let longEpisode = Task {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mpris-long-\(getpid()).opus")
        try await ChapteredMedia.write(.opus, seconds: 300, chapters: [], to: url)
        return url
    }

    private func start(first: Episode = .long) async throws -> Fixture {
        GLibPump.start()
        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink sync=true"
        configuration.videoSink = "fakesink sync=true"
        let player = try PlayerController(configuration: configuration)
        let firstURL = switch first {
        case .long: try await Self.longEpisode.value
        case .sampleWelcome: Self.sample.appendingPathComponent("welcome.opus")
        }
        let items = [firstURL, Self.sample.appendingPathComponent("tips.opus")].map {
            PlaybackItem(uri: $0.absoluteString, kind: .audio, title: $0.lastPathComponent)
        }
        let host = QueueHost(player: player, items: items)
        let service = try MPRISService(player: player, host: host, instance: instance)
        host.service = service
        service.start()
        host.playCurrent()
        // Generous: the in-process suites share this main loop with every other suite running at once.
        let (playing, lastStatus) = await waitForStatus("Playing", timeout: .seconds(60))
        let state = await player.store.state
        try #require(playing, "never played; playerctl last said '\(lastStatus)', the player's state: \(state)")
        return Fixture(player: player, host: host, service: service)
    }

    /// What `playerctl` prints for a query.
    private func playerctl(_ arguments: String...) async throws -> String {
        try await runPlayerctl(arguments).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A command that must reach the player: playerctl exits 0 only when it
    /// sent the call and had its reply, and says why not otherwise (it
    /// refuses by itself what the properties it read say cannot be done).
    private func control(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await runPlayerctl(arguments)
        #expect(result.status == 0 && !result.timedOut,
                "playerctl \(arguments.joined(separator: " ")): status \(result.status), timed out: \(result.timedOut), said '\(result.standardError)'",
                sourceLocation: sourceLocation)
    }

    /// Generous: the in-process suites share the main thread that answers D-Bus.
    private func runPlayerctl(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/playerctl"),
                                   arguments: ["-p", playerName] + arguments, timeout: .seconds(30))
    }

    private func gdbusCall(_ method: String, _ arguments: String...) async throws -> ChildProcess.Result {
        try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2", "--method", method,
        ] + arguments, timeout: .seconds(10))
    }

    /// Whether playerctl came to report `status` within `timeout`, and what it said last.
    private func waitForStatus(_ status: String, timeout: Duration = .seconds(30)) async -> (reached: Bool, lastStatus: String) {
        var lastStatus = ""
        let reached = await eventually(timeout) {
            lastStatus = try await playerctl("status")
            return lastStatus == status
        }
        return (reached, lastStatus)
    }

    private func eventually(_ timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? await condition()) == true { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The bus name and what the player says it is follow the app ID, so a
    /// stable and a `.Devel` build each have their own. Made-up app IDs of
    /// the same shape stand in for the two builds, one after the other:
    /// the app tests may own the real stable name on this bus meanwhile, and
    /// one process has one object at /org/mpris/MediaPlayer2. (Both builds
    /// running at once, installed, are checked by meson-helpers/mpris-profiles-check.)
    @Test("a stable and a .Devel build each own the MPRIS name of their app ID and name themselves after it")
    func nameFollowsAppID() async throws {
        GLibPump.start()
        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink"
        let player = try PlayerController(configuration: configuration)
        let stable = "org.trackcast.TrackcastTest\(instance)"
        for (appID, identity) in [(stable, "Trackcast"), ("\(stable).Devel", "Trackcast (Devel)")] {
            let service = try MPRISService(player: player, host: nil, appID: appID)
            service.start()
            defer { service.stop() }
            var listed: [String] = []
            // Generous, as in `start`: taking the name needs this process's main
            // loop, which every in-process suite shares at the start of a run
            // (a CI run once saw nothing listed within 30 s).
            let isListed = await eventually(.seconds(90)) {
                let list = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/playerctl"), arguments: ["--list-all"],
                                                      timeout: .seconds(30))
                listed = list.standardOutput.split(separator: "\n").map(String.init)
                return listed.contains(appID)
            }
            #expect(isListed, "playerctl lists \(listed), not \(appID)")
            let busName = "org.mpris.MediaPlayer2.\(appID)"
            #expect(MPRISService.busName(appID: appID) == busName)
            let properties = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
                "call", "--session", "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2",
                "--method", "org.freedesktop.DBus.Properties.GetAll", "org.mpris.MediaPlayer2",
            ], timeout: .seconds(10)).standardOutput
            #expect(properties.contains("'DesktopEntry': <'\(appID)'>"), "\(busName) said \(properties)")
            #expect(properties.contains("'Identity': <'\(identity)'>"), "\(busName) said \(properties)")
        }
    }

    @Test("status, pause, play and play-pause do what they say")
    func transport() async throws {
        let fixture = try await start()
        defer { fixture.service.stop() }
        try await control("pause")
        await expectStatus("Paused", of: fixture)
        try await control("play")
        await expectStatus("Playing", of: fixture)
        try await control("play-pause")
        await expectStatus("Paused", of: fixture)
        try await control("stop")
        await expectStatus("Stopped", of: fixture)
    }

    /// Waits for playerctl to report `status`, and says what it and the player said last if it never does.
    private func expectStatus(_ status: String, of fixture: Fixture, sourceLocation: SourceLocation = #_sourceLocation) async {
        let (reached, lastStatus) = await waitForStatus(status)
        let state = await fixture.player.store.state
        #expect(reached, "playerctl last said '\(lastStatus)', the player's state: \(state)", sourceLocation: sourceLocation)
    }

    @Test("metadata describes the item and follows it to the next one")
    func metadata() async throws {
        let fixture = try await start(first: .sampleWelcome)
        defer { fixture.service.stop() }
        #expect(await eventually { try await playerctl("metadata", "xesam:url").hasSuffix("welcome.opus") })
        #expect(try await playerctl("metadata", "xesam:album") == "Trackcast Sample Show")
        #expect(try await playerctl("metadata", "xesam:artist") == "The Trackcast developers")
        #expect(try await playerctl("metadata", "mpris:artUrl") == "file:///usr/share/trackcast/sample/cover.png")
        let length = try #require(Int64(try await playerctl("metadata", "mpris:length")))
        #expect(abs(length - 16_160_000) < 200_000, "the sample episode is about 16.2 s long: \(length)")
        // playerctl prints object paths in GVariant text, quoted.
        let trackID = try await playerctl("metadata", "mpris:trackid")
        #expect(trackID.hasPrefix("'/org/trackcast/Trackcast/Track/"))

        try await control("next")
        #expect(await eventually { try await playerctl("metadata", "xesam:url").hasSuffix("tips.opus") })
        #expect(try await playerctl("metadata", "mpris:trackid") != trackID, "every item has its own track ID")
        #expect(fixture.host.index == 1)
        // Through gdbus: playerctl refuses Next by itself when CanGoNext is false.
        let requestsBefore = fixture.host.nextRequests
        let atTheEnd = try await gdbusCall("org.mpris.MediaPlayer2.Player.Next")
        #expect(atTheEnd.status == 0, "\(atTheEnd.standardError)")
        #expect(fixture.host.nextRequests == requestsBefore, "the service passed Next on while CanGoNext was false")
        #expect(fixture.host.index == 1, "Next at the end of the queue is ignored")
    }

    @Test("position moves playback and Seeked is sent")
    func position() async throws {
        let fixture = try await start()
        defer { fixture.service.stop() }
        let monitor = try ChildProcess(URL(fileURLWithPath: "/usr/bin/gdbus"),
                                       arguments: ["monitor", "--session", "--dest", busName])
        try await Task.sleep(for: .milliseconds(300))
        try await control("position", "10")
        #expect(await eventually { (Double(try await playerctl("position")) ?? 0) >= 10 })
        #expect(await monitor.waitFor(timeout: .seconds(5)) { $0.standardOutput.contains("Seeked") })
        let afterSeek = try #require(Double(try await playerctl("position")))
        #expect(afterSeek >= 10 && afterSeek < 14)

        // Previous past the first seconds restarts the item.
        try await control("previous")
        #expect(await eventually { (Double(try await playerctl("position")) ?? 99) < 3 })
        #expect(fixture.host.index == 0)
    }

    @Test("volume and rate are set, clamped or ignored as the specification says")
    func volumeAndRate() async throws {
        let fixture = try await start()
        defer { fixture.service.stop() }
        try await control("volume", "0.4")
        #expect(await eventually { abs(fixture.player.volume - 0.4) < 0.001 })
        _ = try await gdbusCall("org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Volume", "<-1.0>")
        #expect(await eventually { fixture.player.volume == 0 }, "a negative volume is clamped to 0")

        _ = try await gdbusCall("org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", "<1.5>")
        #expect(await eventually { fixture.player.rate == PlaybackRate(1.5) })
        _ = try await gdbusCall("org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", "<10.0>")
        try await Task.sleep(for: .milliseconds(200))
        #expect(fixture.player.rate == PlaybackRate(1.5), "a rate outside 0.5–3 is ignored")
    }

    @Test("calls to ignore are ignored, and wrong argument types get D-Bus errors")
    func ignoredAndWrongCalls() async throws {
        let fixture = try await start()
        defer { fixture.service.stop() }
        let stale = try await gdbusCall("org.mpris.MediaPlayer2.Player.SetPosition",
                                        "/org/trackcast/Trackcast/Track/999999", "5000000")
        #expect(stale.status == 0)
        let current = try await playerctl("metadata", "mpris:trackid").trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        let item = fixture.player.currentItemID
        let duration = try #require(fixture.player.duration)
        let pastTheEnd = (duration.components.seconds + 1) * 1_000_000
        let beyond = try await gdbusCall("org.mpris.MediaPlayer2.Player.SetPosition", current, "\(pastTheEnd)")
        #expect(beyond.status == 0)
        #expect((Double(try await playerctl("position")) ?? 99) < 4, "neither moved playback")
        #expect(fixture.player.currentItemID == item, "SetPosition past the end changed the item")
        #expect(try await playerctl("metadata", "mpris:trackid") == "'\(current)'", "SetPosition past the end changed the track")
        #expect(fixture.host.index == 0)

        // dbus-send, unlike gdbus, sends what it is told without checking it first.
        let wrongType = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/dbus-send"), arguments: [
            "--session", "--print-reply", "--dest=\(busName)", "/org/mpris/MediaPlayer2",
            "org.mpris.MediaPlayer2.Player.Seek", "string:ten seconds",
        ])
        #expect(wrongType.status != 0)
        #expect(wrongType.standardError.contains("InvalidArgs"), "\(wrongType.standardError)")
        let unknown = try await gdbusCall("org.mpris.MediaPlayer2.Player.Rewind")
        #expect(unknown.status != 0)
        #expect(try await playerctl("status") == "Playing", "the player is still up and playing")
    }

    @Test("OpenUri takes files and web addresses only: a camera, a UDP port or a descriptor gets a D-Bus error and reaches no one; SupportedUriSchemes says the same")
    func openUriSchemes() async throws {
        let fixture = try await start()
        defer { fixture.service.stop() }
        for refused in ["v4l2:///dev/video0", "udp://0.0.0.0:5004", "fd://0", "rtsp://127.0.0.1/cam"] {
            let result = try await gdbusCall("org.mpris.MediaPlayer2.Player.OpenUri", refused)
            #expect(result.status != 0, "\(refused) was accepted")
            #expect(result.standardError.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result.standardError)")
        }
        #expect(fixture.host.opened.isEmpty, "reached the host: \(fixture.host.opened)")
        let file = try await Self.longEpisode.value.absoluteString
        let accepted = try await gdbusCall("org.mpris.MediaPlayer2.Player.OpenUri", file)
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(fixture.host.opened == [file])

        let schemes = try await gdbusCall("org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2", "SupportedUriSchemes")
        #expect(schemes.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "(<['file', 'http', 'https']>,)", "\(schemes.standardOutput)")
        #expect(try await playerctl("status") == "Playing", "what was playing plays on")
    }

    @Test("a thousand rapid calls, valid and invalid, leave it up and consistent")
    func rapidCalls() async throws {
        let fixture = try await start()
        defer { fixture.service.stop() }
        // A shell script sends them back to back, each waiting for its reply.
        var script = ""
        let calls = [
            "org.mpris.MediaPlayer2.Player.PlayPause", "org.mpris.MediaPlayer2.Player.Seek int64:1000000",
            "org.mpris.MediaPlayer2.Player.Seek string:oops", "org.mpris.MediaPlayer2.Player.Nope",
            "org.mpris.MediaPlayer2.Player.SetPosition objpath:/x int64:1", "org.mpris.MediaPlayer2.Player.Play",
            "org.freedesktop.DBus.Properties.Get string:org.mpris.MediaPlayer2.Player string:Position",
            "org.mpris.MediaPlayer2.Player.Seek int64:-3000000",
        ]
        for index in 0..<1000 {
            script += "dbus-send --session --print-reply --dest=\(busName) /org/mpris/MediaPlayer2 \(calls[index % calls.count]) >/dev/null 2>&1\n"
        }
        let scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("mpris-calls-\(instance).sh")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scriptFile) }
        _ = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: [scriptFile.path], timeout: .seconds(120))
        try await control("play")
        #expect(await eventually { try await playerctl("status") == "Playing" })
        let position = try #require(Double(try await playerctl("position")))
        let duration = try #require(fixture.player.duration)
        #expect(position >= 0 && position <= Double(duration.components.seconds) + 1)
        #expect(fixture.host.index == 0)
    }
}
