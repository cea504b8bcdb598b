import Foundation
import TestSupport
import Testing

/// A live HLS stream through the running app: a playlist without an end on
/// loopback, a segment published every second while it plays.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("a live playlist shows LIVE, has no length on MPRIS, seeks within its window and goes back to live")
    func livePlaylist() async throws {
        let server = try TestHTTPServer()
        let live = LiveStream(segments: try await LiveStream.makeSegments(seconds: 90), on: server, window: 40,
                              initially: 40)
        let encoder = live.publishEverySecond()
        defer { encoder.cancel() }
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, arguments: [server.url(live.path)])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("| Pause | LIVE"), "no LIVE badge: \(app.standardOutput)")
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
        #expect(result.status == 0 && !result.timedOut)
    }
}
