import Foundation
import TestSupport
import Testing

/// HLS interstitials through the running app: read from the playlist on
/// loopback and marked on the seek bar, played at their time in the item's
/// place, played first when a seek goes over a JUMP-restricted one, not to
/// be skipped while a SKIP-restricted one plays, and ended by an item change;
/// an asset list's assets played one after the other, a broken or hostile
/// list passed over; `CUE="PRE"` and `"POST"`.
/// The stream is `InterstitialStream`: "first" at 4 s resuming 3 s on,
/// "locked" (SKIP, JUMP, ONCE) at 12 s, each playing a 2 s asset.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// Serves the stream and runs `body` with the app launched on `path`, once it has read the interstitials (`read`).
    private func withInterstitialStream(path: String = InterstitialStream.playlistPath,
                                        read: String = "interstitials: 2 (first at 4.0 s, locked at 12.0 s)",
                                        _ body: (RunningApp, TestHTTPServer) async throws -> Void) async throws {
        let server = try TestHTTPServer()
        InterstitialStream.serve(try await HLSAudioSegments.make(), on: server)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, arguments: [server.url(path)])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine(read), "\(app.standardOutput)")
            try await body(app, server)
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    /// Pauses and seeks over "locked" to 15 s: it loads in the item's place, paused.
    private func seekOverLocked(_ app: RunningApp, _ server: TestHTTPServer) async throws {
        // The playlist is read while the item loads: it pauses once it plays.
        try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
        try await app.activate("play-pause")
        try #require(await app.waitForLine("playback: paused"), "\(app.standardOutput)")
        try await app.activate("seek-to", "[<15.0>]")
        try #require(await app.waitForLine("interstitial locked: sought over, it plays first, then 15.00 s"),
                     "\(app.standardOutput)")
        try #require(await app.waitForLine("interstitial locked: playing \(server.url(InterstitialStream.assetPath))"),
                     "\(app.standardOutput)")
    }

    /// The positions the app logged after the first line holding `text`.
    private func positions(of app: RunningApp, afterLine text: String) -> [Double] {
        let output = app.standardOutput
        guard let line = output.range(of: text) else { return [] }
        return app.positions(after: line.upperBound)
    }

    /// Polls MPRIS's Metadata until it holds `text` (PropertiesChanged is coalesced to the next main-loop turn).
    private func mprisMetadata(of app: RunningApp, contains text: String) async throws -> Bool {
        for _ in 0..<50 {
            if try await app.mprisPlayerProperty("Metadata").contains(text) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test("the two interstitials an HLS playlist schedules are read from it and marked on the seek bar")
    func interstitialMarks() async throws {
        try await withInterstitialStream { app, _ in
            #expect(await app.waitForLine("scrubber: 2 interstitial ranges (4.0-7.0, 12.0-14.0)"), "\(app.standardOutput)")
        }
    }

    @Test("at its time the interstitial's asset plays in the item's place, marked so, and the item resumes at its offset")
    func interstitialPlaysAtItsTime() async throws {
        try await withInterstitialStream { app, server in
            let asset = server.url(InterstitialStream.assetPath)
            try #require(await app.waitForLine("interstitial first: playing \(asset)"), "\(app.standardOutput)")
            // Its own load, with its own ID, as MPRIS and the player bar say.
            #expect(try await mprisMetadata(of: app, contains: "'trackcast:interstitial': <'first'>"))
            let metadata = try await app.mprisPlayerProperty("Metadata")
            #expect(metadata.contains("'xesam:url': <'\(asset)'>"), "\(metadata)")
            #expect(await app.waitForLine("| interstitial first"), "\(app.standardOutput)")
            #expect(await app.waitForLine("interstitial first at "), "the asset never played: \(app.standardOutput)")
            #expect(server.requests.contains { $0.contains("GET /ads/segment") }, "\(server.requests)")

            let over = "interstitial first: over, the item resumes at 7.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            // At the offset (4 + 3), not at 4 + the asset's 2 s, nor where it left off.
            let resumed = try #require(positions(of: app, afterLine: over).first)
            #expect(resumed >= 6.95 && resumed < 9, "resumed at \(resumed) s: \(app.standardOutput)")
            #expect(try await mprisMetadata(of: app, contains: "'xesam:url': <'\(server.url(InterstitialStream.playlistPath))'>"))
            let resumedMetadata = try await app.mprisPlayerProperty("Metadata")
            #expect(!resumedMetadata.contains("trackcast:interstitial"), "\(resumedMetadata)")
        }
    }

    @Test("a seek over the locked interstitial plays it first, a skip inside it is refused, then it lands where asked")
    func seekOverLockedInterstitial() async throws {
        try await withInterstitialStream { app, server in
            try await seekOverLocked(app, server)
            #expect(try await mprisMetadata(of: app, contains: "'trackcast:interstitial': <'locked'>"))
            let canSeek = try await app.mprisPlayerProperty("CanSeek")
            #expect(canSeek.contains("false"), "SKIP-restricted: no seeking, but CanSeek is \(canSeek)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("interstitial locked at "), "\(app.standardOutput)")

            // Skips inside it, from the seek bar's action, MPRIS and the keyboard: refused.
            let skip = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<1.5>]")
            // Forward within the 2 s asset (a negative offset would pass for one of gdbus's options).
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Seek", "500000")
            try await app.type("Right")
            #expect(await app.waitFor(timeout: .seconds(10)) {
                $0.standardOutput[skip...].components(separatedBy: "interstitial locked: seek refused").count == 4
            }, "\(app.standardOutput[skip...])")
            #expect(!app.standardOutput[skip...].contains(": seek to "), "the asset was sought: \(app.standardOutput[skip...])")

            let over = "interstitial locked: over, the item resumes at 15.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput[skip...])")
            let landed = try #require(positions(of: app, afterLine: over).first)
            #expect(landed >= 14.95 && landed < 17, "landed at \(landed) s: \(app.standardOutput[skip...])")
            // "first", sought over without a restriction, was not played.
            #expect(!app.standardOutput.contains("interstitial first: playing"))
            let canSeekAfter = try await app.mprisPlayerProperty("CanSeek")
            #expect(canSeekAfter.contains("true"), "\(canSeekAfter)")
        }
    }

    @Test("one without CUE=ONCE plays again when a seek goes back before it and playback crosses it again")
    func interstitialPlaysAgainAfterSeekBack() async throws {
        try await withInterstitialStream { app, server in
            let over = "interstitial first: over, the item resumes at 7.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            let mark = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<2.0>]")
            #expect(await app.waitForLine("interstitial first: playing \(server.url(InterstitialStream.assetPath))", after: mark),
                    "\(app.standardOutput[mark...])")
        }
    }

    @Test("one with CUE=ONCE is not played again when a seek goes back over it")
    func playedInterstitialNotReplayed() async throws {
        try await withInterstitialStream { app, server in
            try await seekOverLocked(app, server)
            try await app.activate("play-pause")
            let over = "interstitial locked: over, the item resumes at 15.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            let mark = app.standardOutput.endIndex
            // Back to 11 s: playback crosses 12 s again, and a seek from 11 to 13 goes over it again.
            try await app.activate("seek-to", "[<11.0>]")
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.positions(after: mark).contains { $0 > 12.5 } },
                         "\(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("interstitial locked: playing"), "\(app.standardOutput[mark...])")
        }
    }

    @Test("an item change while an interstitial plays ends it: none of the asset's events reach the new item")
    func itemChangeCancelsInterstitial() async throws {
        try await withInterstitialStream { app, server in
            try await seekOverLocked(app, server)
            try await app.activate("play-pause")
            try #require(await app.waitForLine("interstitial locked at "), "\(app.standardOutput)")
            let mark = app.standardOutput.endIndex
            let plain = server.url(InterstitialStream.plainPath)
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.OpenUri", plain)
            try #require(await app.waitForLine("interstitial locked: cancelled", after: mark), "\(app.standardOutput[mark...])")
            // Past the asset's length on the new item: the asset's end, had it come through, would have been by now.
            try #require(await app.waitFor(timeout: .seconds(30)) { $0.positions(after: mark).contains { $0 > 4 } },
                         "\(app.standardOutput[mark...])")
            let after = app.standardOutput[mark...]
            #expect(!after.contains("interstitial locked: over"), "\(after)")
            #expect(!after.contains("interstitial locked at "), "\(after)")
            #expect(!after.contains("| interstitial"), "the player bar still shows it: \(after)")
            let metadata = try await app.mprisPlayerProperty("Metadata")
            #expect(metadata.contains("'xesam:url': <'\(plain)'>") && !metadata.contains("trackcast:interstitial"),
                    "\(metadata)")
        }
    }

    @Test("Stop during an interstitial leaves the item where the seek over it asked to go; Play goes on from there without it")
    func stopDuringInterstitial() async throws {
        try await withInterstitialStream { app, server in
            try await seekOverLocked(app, server)
            let mark = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Stop")
            try #require(await app.waitForLine("interstitial locked: cancelled", after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("stopped at 15.00 s", after: mark), "\(app.standardOutput[mark...])")
            try await app.activate("play-pause")
            try #require(await app.waitFor(timeout: .seconds(20)) { !$0.positions(after: mark).isEmpty },
                         "\(app.standardOutput[mark...])")
            let started = try #require(app.positions(after: mark).first)
            #expect(started >= 14.95 && started < 17, "played from \(started) s: \(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("interstitial locked: playing"), "\(app.standardOutput[mark...])")
        }
    }

    /// Nothing of the item played before `line`: its load never reached
    /// PLAYING and no position of it was logged.
    private func nothingOfTheItemPlayed(_ app: RunningApp, before line: String) -> Bool {
        let output = app.standardOutput
        guard let at = output.range(of: line) else { return false }
        let before = output[..<at.lowerBound]
        return !before.contains("playback: playing") && !before.contains("position: ")
    }

    @Test("an interstitial at 0 s (a pre-roll) plays before any of the item, which then starts at its offset, 0 s")
    func prerollPlaysFirst() async throws {
        try await withInterstitialStream(path: InterstitialStream.prerollPath, read: "interstitials: 1 (pre at 0.0 s)") { app, server in
            let playing = "interstitial pre: playing \(server.url(InterstitialStream.assetPath))"
            try #require(await app.waitForLine(playing), "\(app.standardOutput)")
            #expect(nothingOfTheItemPlayed(app, before: playing), "\(app.standardOutput)")
            #expect(await app.waitForLine("interstitial pre at "), "the asset never played: \(app.standardOutput)")
            let over = "interstitial pre: over, the item resumes at 0.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            let started = try #require(positions(of: app, afterLine: over).first)
            #expect(started < 1.5, "the item started at \(started) s: \(app.standardOutput)")
            // Once: the item's own start does not bring it back.
            #expect(app.standardOutput.components(separatedBy: "interstitial pre: playing").count == 2)
        }
    }

    @Test("an asset list's assets play one after the other, each its own load; the item resumes after their summed lengths; broken and hostile lists are passed over")
    func assetListPlays() async throws {
        try await withInterstitialStream(path: InterstitialStream.listPath,
                                         read: "interstitials: 3 (listed at 4.0 s, broken at 10.0 s, hostile at 13.0 s)") { app, server in
            let first = server.url(InterstitialStream.assetPath), second = server.url(InterstitialStream.secondAssetPath)
            try #require(await app.waitForLine("interstitial listed: 2 assets listed"), "\(app.standardOutput)")
            try #require(await app.waitForLine("interstitial listed: playing \(first) (load "), "\(app.standardOutput)")
            try #require(await app.waitForLine("interstitial listed: playing \(second) (load "), "\(app.standardOutput)")
            #expect(try await mprisMetadata(of: app, contains: "'xesam:url': <'\(second)'>"))
            // Two loads of their own, one after the other.
            var loads: [Substring] = []
            for line in app.standardOutput.split(separator: "\n") where line.contains("interstitial listed: playing") {
                guard let load = line.range(of: "(load ") else { continue }
                loads.append(line[load.upperBound...].prefix { $0 != ")" })
            }
            #expect(loads.count == 2 && Set(loads).count == 2, "\(loads)")
            #expect(await app.waitForLine("| interstitial listed"), "\(app.standardOutput)")
            // No resume offset: 4 s + the two assets' 2 s each, not the date range's 10 s.
            let over = "interstitial listed: over, the item resumes at 8.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            let resumed = try #require(positions(of: app, afterLine: over).first)
            #expect(resumed >= 7.95 && resumed < 10, "resumed at \(resumed) s: \(app.standardOutput)")

            // The 404 and the 1e300 are said, and the item plays on through both times.
            #expect(await app.waitForLine("interstitial broken: asset list not read (status(404)); the item goes on"),
                    "\(app.standardOutput)")
            #expect(await app.waitForLine("interstitial hostile: asset list not read (asset 0: DURATION 1e300 is not a time); the item goes on"),
                    "\(app.standardOutput)")
            try #require(await app.waitFor(timeout: .seconds(20)) { positions(of: $0, afterLine: over).contains { $0 > 14 } },
                         "\(app.standardOutput)")
            #expect(!app.standardOutput.contains("interstitial broken: playing"))
            #expect(!app.standardOutput.contains("interstitial hostile: playing"))
            #expect(server.requests.contains { $0.contains("GET /ads2/segment") }, "\(server.requests)")
        }
    }

    @Test("CUE=PRE plays before any of the item, whatever its date, and the item then starts where it was to start; crossing its date does not bring it back",
          arguments: [InterstitialStream.cuePrePath, InterstitialStream.cuePreUnnamedPath])
    func cuePrePlaysFirst(path: String) async throws {
        try await withInterstitialStream(path: path, read: "interstitials: 1 (pre at 10.0 s)") { app, server in
            let playing = "interstitial pre: playing \(server.url(InterstitialStream.assetPath))"
            try #require(await app.waitForLine(playing), "\(app.standardOutput)")
            // The player held the item at ready, or the playlist was read before it was.
            #expect(nothingOfTheItemPlayed(app, before: playing), "\(app.standardOutput)")
            #expect(await app.waitForLine("interstitial pre at "), "the asset never played: \(app.standardOutput)")
            let over = "interstitial pre: over, the item resumes at "
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            let started = try #require(positions(of: app, afterLine: over).first)
            #expect(started < 1.5, "the item started at \(started) s: \(app.standardOutput)")
            try #require(await app.waitFor(timeout: .seconds(20)) { positions(of: $0, afterLine: over).contains { $0 > 11 } },
                         "\(app.standardOutput)")
            #expect(app.standardOutput.components(separatedBy: "interstitial pre: playing").count == 2, "\(app.standardOutput)")
        }
    }

    @Test("CUE=POST plays once the item has played to its end, whatever its date, and the item stays ended")
    func cuePostPlaysAtTheEnd() async throws {
        try await withInterstitialStream(path: InterstitialStream.cuePostPath, read: "interstitials: 1 (post at 2.0 s)") { app, server in
            // Not at its date: past 2 s with no interstitial.
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.positions().contains { $0 > 3 } }, "\(app.standardOutput)")
            #expect(!app.standardOutput.contains("interstitial post: playing"), "\(app.standardOutput)")
            let mark = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<17.0>]")
            try #require(await app.waitForLine("interstitial post: playing \(server.url(InterstitialStream.assetPath))", after: mark,
                                               timeout: .seconds(30)), "\(app.standardOutput[mark...])")
            let after = app.standardOutput[mark...]
            let ended = try #require(after.range(of: "item event: ended"), "\(after)")
            #expect(ended.lowerBound < after.range(of: "interstitial post: playing")!.lowerBound, "\(after)")
            #expect(await app.waitForLine("interstitial post at ", after: mark), "the asset never played: \(app.standardOutput[mark...])")
            try #require(await app.waitForLine("interstitial post: over, the item has ended", after: mark),
                         "\(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("interstitial post: over, the item resumes"))
        }
    }

    @Test("a second asset list due while the first is still fetched waits its turn: both play, in the order they came due, and the item resumes after the second")
    func assetListsPlayInTurn() async throws {
        try await withInterstitialStream(path: InterstitialStream.queuePath,
                                         read: "interstitials: 2 (slow at 4.0 s, next at 5.0 s)") { app, server in
            let first = server.url(InterstitialStream.assetPath), second = server.url(InterstitialStream.secondAssetPath)
            let slow = "interstitial slow: playing \(first) (load ", next = "interstitial next: playing \(second) (load "
            try #require(await app.waitForLine(slow, timeout: .seconds(30)), "\(app.standardOutput)")
            try #require(await app.waitForLine(next, timeout: .seconds(30)), "\(app.standardOutput)")
            let output = app.standardOutput
            // The second list was asked for while the first was being fetched (the server holds the first till then).
            let asked = try #require(output.range(of: "interstitial next: reading its asset list"), "\(output)")
            #expect(asked.lowerBound < output.range(of: slow)!.lowerBound, "\(output)")
            #expect(output.range(of: slow)!.lowerBound < output.range(of: next)!.lowerBound, "\(output)")
            // One after the other in the item's place: the item is not loaded between them.
            #expect(!output.contains("interstitial slow: over"), "\(output)")
            let over = "interstitial next: over, the item resumes at 7.00 s"
            try #require(await app.waitFor(timeout: .seconds(20)) { !positions(of: $0, afterLine: over).isEmpty },
                         "\(app.standardOutput)")
            let resumed = try #require(positions(of: app, afterLine: over).first)
            #expect(resumed >= 6.95 && resumed < 9, "resumed at \(resumed) s: \(app.standardOutput)")
            #expect(app.standardOutput.components(separatedBy: "interstitial slow: playing").count == 2)
            #expect(app.standardOutput.components(separatedBy: "interstitial next: playing").count == 2)
        }
    }
}
