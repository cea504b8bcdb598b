import Foundation
import TestSupport
import Testing

/// A live HLS stream through the running app: a playlist without an end on
/// loopback, a segment published every second while it plays.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// Publishes `live` a segment a second and runs `body` with the app launched on it, once it shows LIVE.
    private func withLiveApp(_ live: LiveStream, on server: TestHTTPServer,
                             _ body: (RunningApp) async throws -> Void) async throws {
        let encoder = live.publishEverySecond()
        defer { encoder.cancel() }
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, arguments: [server.url(live.path)])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("| Pause | LIVE"), "no LIVE badge: \(app.standardOutput)")
            try await body(app)
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a live playlist shows LIVE, has no length on MPRIS, seeks within its window and goes back to live")
    func livePlaylist() async throws {
        let server = try TestHTTPServer()
        let live = LiveStream(segments: try await LiveStream.makeSegments(seconds: 90), on: server, window: 40,
                              initially: 40)
        try await withLiveApp(live, on: server) { app in
            let metadata = try await app.mprisPlayerProperty("Metadata")
            #expect(metadata.contains("xesam:url") && !metadata.contains("mpris:length"), "metadata: \(metadata)")
            // A window of 40 one-second segments: it can seek within it.
            #expect(try await app.mprisPlayerProperty("CanSeek").contains("true"))

            var mark = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<2.0>]")
            try #require(await app.waitForLine("live: behind the edge", after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("| Pause | LIVE | go to live", after: mark), "\(app.standardOutput[mark...])")
            mark = app.standardOutput.endIndex
            try await app.activate("go-to-live")
            #expect(await app.waitForLine("live: going to the edge", after: mark))
            #expect(await app.waitForLine("| Pause | LIVE\n", after: mark), "the button stayed: \(app.standardOutput[mark...])")
        }
    }

    /// Serves the first `count` of `segments` under `folder` as a playlist that ends; returns its path.
    private func serveEnded(_ segments: [Data], count: Int, under folder: String, on server: TestHTTPServer) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:0"]
        for index in 0..<count {
            lines += ["#EXTINF:1.0,", "ad\(index).ts"]
            server.route("\(folder)/ad\(index).ts", .serve(segments[index], contentType: "video/mp2t"))
        }
        server.route("\(folder)/ad.m3u8", .serve(Data((lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").utf8),
                                                contentType: "application/vnd.apple.mpegurl"))
        return "\(folder)/ad.m3u8"
    }

    @Test("an interstitial dated ahead in a live playlist plays when playback reaches it, then the stream is live again at its edge")
    func liveInterstitial() async throws {
        let server = try TestHTTPServer()
        let segments = try await LiveStream.makeSegments(seconds: 90)
        // The asset: two of the same segments, a playlist that ends.
        _ = serveEnded(segments, count: 2, under: "/ads", on: server)
        // The first segment is dated 10:00:00; the break is 46 s on, past the 40 s the window first holds.
        let live = LiveStream(segments: segments, on: server, window: 40, initially: 40,
                              programDate: Date(timeIntervalSince1970: 1_772_359_200), dateRanges: [
                                  #"#EXT-X-DATERANGE:ID="break",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:46Z",DURATION=2,X-ASSET-URI="/ads/ad.m3u8""#,
                              ])
        try await withLiveApp(live, on: server) { app in
            try #require(await app.waitForLine("interstitials: 1 (break at "), "\(app.standardOutput)")
            try #require(await app.waitForLine("interstitial break: playing \(server.url("/ads/ad.m3u8"))", timeout: .seconds(40)),
                         "\(app.standardOutput)")
            #expect(await app.waitForLine("interstitial break at "), "the asset never played: \(app.standardOutput)")
            #expect(server.requests.contains { $0.contains("GET /ads/ad0.ts") }, "\(server.requests)")
            let over = "interstitial break: over, the item goes back to its live edge"
            try #require(await app.waitForLine(over, timeout: .seconds(30)), "\(app.standardOutput)")
            let mark = try #require(app.standardOutput.range(of: over)).upperBound
            // Live again, at its edge: the badge without "go to live", and playing on.
            #expect(await app.waitForLine("| Pause | LIVE\n", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.positions(after: mark).count >= 4 },
                         "\(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("live: behind the edge"), "\(app.standardOutput[mark...])")
            #expect(!app.standardOutput[mark...].contains("interstitial break: playing"), "\(app.standardOutput[mark...])")
            let metadata = try await app.mprisPlayerProperty("Metadata")
            #expect(metadata.contains("'xesam:url': <'\(server.url(live.path))'>") && !metadata.contains("mpris:length"),
                    "\(metadata)")
        }
    }

    @Test("an interstitial a live playlist gains while it plays is read at a reload and played; the reloads stop with the item")
    func liveInterstitialAddedLater() async throws {
        let server = try TestHTTPServer()
        let segments = try await LiveStream.makeSegments(seconds: 90)
        let asset = server.url(serveEnded(segments, count: 2, under: "/ads", on: server))
        let other = server.url(serveEnded(segments, count: 20, under: "/other", on: server))
        let programDate = Date(timeIntervalSince1970: 1_772_359_200)
        let live = LiveStream(segments: segments, on: server, window: 40, initially: 40, programDate: programDate)
        try await withLiveApp(live, on: server) { app in
            try #require(await app.waitForLine("interstitials: 0 ()"), "\(app.standardOutput)")
            // Dated 6 s past the newest segment: ahead of playback, which starts a few segments behind it.
            let formatter = ISO8601DateFormatter()
            let start = formatter.string(from: programDate.addingTimeInterval(Double(live.publishedCount + 6)))
            live.setDateRanges([
                #"#EXT-X-DATERANGE:ID="late",CLASS="com.apple.hls.interstitial",START-DATE="\#(start)",DURATION=2,X-ASSET-URI="/ads/ad.m3u8""#,
            ])
            try #require(await app.waitForLine("interstitials: 1 (late at ", timeout: .seconds(10)), "\(app.standardOutput)")
            #expect(app.standardOutput.contains("the live playlist read again"), "\(app.standardOutput)")
            try #require(await app.waitForLine("interstitial late: playing \(asset)", timeout: .seconds(40)),
                         "\(app.standardOutput)")
            let over = "interstitial late: over, the item goes back to its live edge"
            try #require(await app.waitForLine(over, timeout: .seconds(30)), "\(app.standardOutput)")
            #expect(app.standardOutput.components(separatedBy: "interstitial late: playing").count == 2)

            // Another item: nothing reads the live playlist any more, the player's demuxer nor the app.
            let mark = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.OpenUri", other)
            try #require(await app.waitFor(timeout: .seconds(20)) { !$0.positions(after: mark).isEmpty },
                         "\(app.standardOutput[mark...])")
            let readsThen = server.log(for: live.path).count
            // Four of its target durations later.
            try #require(await app.waitFor(timeout: .seconds(20)) { $0.positions(after: mark).contains { $0 > 4.5 } },
                         "\(app.standardOutput[mark...])")
            #expect(server.log(for: live.path).count == readsThen, "\(server.requests.suffix(20))")
        }
    }
}
