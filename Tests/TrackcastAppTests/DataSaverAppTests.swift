import Foundation
import TestSupport
import Testing

/// The data saver through the running app: a three-variant HLS stream on
/// loopback, and a metered network simulated through GIO's network monitor
/// (`FakeNetworkManager`).
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("metered: the metered caps reach the playing stream's demuxer, and unmetered lifts them while it plays")
    func meteredNetworkCapsStreams() async throws {
        let network = try await FakeNetworkManager(metered: true)
        defer { network.stop() }
        let server = try TestHTTPServer()
        // Five times over, 100 s: segments are still to come when the network changes.
        VariantStream.serve(try await HLSAudioSegments.make(), on: server, repeats: 5)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, arguments: [server.url(VariantStream.masterPath)],
                                              environment: network.environment)
        let result = try await app.quitting { app in
            // The schema's metered defaults: 480 pixels, 1000 kbit/s.
            try #require(await app.waitForLine("data saver: metered, 480p, 1000 kbit/s"), "\(app.standardOutput)")
            try #require(await app.waitFor(timeout: .seconds(30)) {
                _ in VariantStream.segmentVariants(in: server.requests).count >= 3
            }, "segments fetched: \(server.requests)\n\(app.standardOutput)")
            // The first three, the ones waited for: on a loaded machine the demuxer may have fetched
            // many more by now, and 1.22's hlsdemux fails over to another variant after a fragment
            // that came too slowly (a CI run saw [2 ×7, 1, 2 ×5, 3, 2 …] at load 3). 480p allows
            // the 360p variant only: held there until the app read the master playlist, then kept there.
            let metered = Array(VariantStream.segmentVariants(in: server.requests).prefix(3))
            #expect(metered == [1, 1, 1], "metered, the segments came from variants \(VariantStream.segmentVariants(in: server.requests))")
            // The height cap as the demuxer holds it once the app read the variants (before or after
            // the demuxer was made): 360p's 200 kbit/s; 1 until then.
            #expect(await app.waitForLine("connection-speed 200"), "\(app.standardOutput)")

            let mark = app.standardOutput.endIndex
            network.flip()
            try #require(await app.waitForLine("data saver: not metered, any height, any bitrate", after: mark),
                         "\(app.standardOutput[mark...])")
            // Read back from the demuxer itself.
            #expect(await app.waitForLine("demuxers, connection-speed 0", after: mark), "\(app.standardOutput[mark...])")
            let before = VariantStream.segmentVariants(in: server.requests).count
            let lifted = await app.waitFor(timeout: .seconds(20)) { _ in
                VariantStream.segmentVariants(in: server.requests).dropFirst(before).contains(3)
            }
            #expect(lifted, "unmetered, the segments came from \(VariantStream.segmentVariants(in: server.requests).dropFirst(before))")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("metered: an item that comes back from an interstitial is held to the height limit again, not to its lowest variant")
    func heightLimitAfterInterstitial() async throws {
        let network = try await FakeNetworkManager(metered: true)
        defer { network.stop() }
        let server = try TestHTTPServer()
        InterstitialStream.serve(try await HLSAudioSegments.make(), on: server)
        // The interstitial stream under a master of two variants (the query tells them apart, the
        // segments are the same): 480p allows the 360p one, 200 kbit/s.
        let master = ["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=640x360", "playlist.m3u8",
                      "#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=1280x720", "playlist.m3u8?variant=2", ""]
        server.route("/vod/master.m3u8", .serve(Data(master.joined(separator: "\n").utf8),
                                                contentType: "application/vnd.apple.mpegurl"))
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, arguments: [server.url("/vod/master.m3u8")],
                                              environment: network.environment)
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("connection-speed 200"), "\(app.standardOutput)")
            let over = "interstitial first: over, the item resumes at 7.00 s"
            try #require(await app.waitForLine(over, timeout: .seconds(30)), "\(app.standardOutput)")
            let mark = app.standardOutput.range(of: over)!.upperBound
            // The item's new demuxer: made with the variants' bandwidth, or given it once they are back.
            #expect(await app.waitForLine("connection-speed 200", after: mark), "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
