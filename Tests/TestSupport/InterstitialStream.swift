import Foundation

/// An HLS stream with two interstitials, served from a `TestHTTPServer`:
/// a media playlist at `playlistPath` over one-second segments, placed on
/// the clock by `EXT-X-PROGRAM-DATE-TIME`, scheduling
/// - "first" at 4 s, 3 s long, resuming 3 s on (`X-RESUME-OFFSET=3`);
/// - "locked" at 12 s, 2 s long, `X-RESTRICT="SKIP,JUMP"`, no resume offset;
/// both playing the asset at `assetPath`, a media playlist of its own of
/// `assetSeconds` segments. `plainPath` serves the same segments without
/// interstitials: another item to change to; `prerollPath` with one
/// interstitial, "pre", at 0 s, resuming at 0 (`X-RESUME-OFFSET=0`).
public enum InterstitialStream {
    public static let playlistPath = "/vod/playlist.m3u8"
    public static let prerollPath = "/preroll/playlist.m3u8"
    public static let assetPath = "/ads/ad.m3u8"
    public static let plainPath = "/plain/playlist.m3u8"

    public static func serve(_ segments: [String: Data], on server: TestHTTPServer, assetSeconds: Int = 2) {
        let names = segments.keys.sorted()
        let dateRanges = [
            #"#EXT-X-DATERANGE:ID="first",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:04Z",DURATION=3,X-ASSET-URI="/ads/ad.m3u8",X-RESUME-OFFSET=3"#,
            #"#EXT-X-DATERANGE:ID="locked",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:12Z",DURATION=2,X-ASSET-URI="/ads/ad.m3u8",X-RESTRICT="SKIP,JUMP""#,
        ]
        let programDate = "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T10:00:00.000Z"
        serve(names, of: segments, under: "/vod", tags: [programDate] + dateRanges, on: server)
        serve(names, of: segments, under: "/plain", tags: [], on: server)
        serve(names, of: segments, under: "/preroll", tags: [programDate, #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:00Z",X-ASSET-URI="/ads/ad.m3u8",X-RESUME-OFFSET=0"#], on: server)
        serve(Array(names.prefix(assetSeconds)), of: segments, under: "/ads", tags: [], on: server, playlist: "ad.m3u8")
    }

    private static func serve(_ names: [String], of segments: [String: Data], under folder: String, tags: [String],
                              on server: TestHTTPServer, playlist: String = "playlist.m3u8") {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"] + tags
        for name in names {
            lines += ["#EXTINF:1.0,", name]
            server.route("\(folder)/\(name)", .serve(segments[name]!, contentType: "video/mp2t"))
        }
        lines.append("#EXT-X-ENDLIST")
        server.route("\(folder)/\(playlist)", .serve(Data((lines.joined(separator: "\n") + "\n").utf8),
                                                     contentType: "application/vnd.apple.mpegurl"))
    }
}
