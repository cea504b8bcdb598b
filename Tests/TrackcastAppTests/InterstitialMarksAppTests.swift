import Foundation
import TestSupport
import Testing

/// Interstitials an HLS playlist schedules, as far as they are done: read
/// from the playlist on loopback and marked on the seek bar.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("the two interstitials an HLS playlist schedules are read from it and marked on the seek bar")
    func interstitialMarks() async throws {
        let server = try TestHTTPServer()
        let segments = try await Self.hlsSegments()
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0",
                     "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T10:00:00.000Z",
                     #"#EXT-X-DATERANGE:ID="first",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:04Z",DURATION=3,X-ASSET-URI="ad.m3u8",X-RESUME-OFFSET=3"#,
                     #"#EXT-X-DATERANGE:ID="locked",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:12Z",DURATION=2,X-ASSET-URI="ad.m3u8",X-RESTRICT="SKIP,JUMP""#]
        for name in segments.keys.sorted() {
            lines += ["#EXTINF:1.0,", name]
            server.route("/vod/\(name)", .serve(segments[name]!, contentType: "video/mp2t"))
        }
        lines.append("#EXT-X-ENDLIST")
        server.route("/vod/playlist.m3u8", .serve(Data((lines.joined(separator: "\n") + "\n").utf8),
                                                  contentType: "application/vnd.apple.mpegurl"))
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, arguments: [server.url("/vod/playlist.m3u8")])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("interstitials: 2 (first at 4.0 s, locked at 12.0 s)"),
                         "\(app.standardOutput)")
            #expect(await app.waitForLine("scrubber: 2 interstitial ranges (4.0-7.0, 12.0-14.0)"), "\(app.standardOutput)")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
