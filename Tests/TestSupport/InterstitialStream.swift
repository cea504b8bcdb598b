import Foundation

/// An HLS stream with two interstitials, served from a `TestHTTPServer`:
/// a media playlist at `playlistPath` over one-second segments, placed on
/// the clock by `EXT-X-PROGRAM-DATE-TIME`, scheduling
/// - "first" at 4 s, 3 s long, resuming 3 s on (`X-RESUME-OFFSET=3`);
/// - "locked" at 12 s, 2 s long, `X-RESTRICT="SKIP,JUMP"`, `CUE="ONCE"`, no
///   resume offset;
/// both playing the asset at `assetPath`, a media playlist of its own of
/// `assetSeconds` segments. `plainPath` serves the same segments without
/// interstitials: another item to change to; `prerollPath` with one
/// interstitial, "pre", at 0 s, resuming at 0 (`X-RESUME-OFFSET=0`).
/// The same segments with other interstitials:
/// - `listPath`: "listed" at 4 s, `DURATION=10`, no resume offset, its
///   `X-ASSET-LIST` at `assetListPath` naming `assetPath` and
///   `secondAssetPath` (each `assetSeconds` long); "broken" at 10 s, its
///   list answered 404; "hostile" at 13 s, its list giving a `DURATION` of 1e300;
/// - `queuePath`: "slow" at 4 s, its `X-ASSET-LIST` at `slowListPath`
///   (naming `assetPath`) answered only once the list of "next", at 5 s
///   (`nextListPath`, naming `secondAssetPath`), has been asked for: the
///   second list comes due while the first is still being fetched;
/// - `cuePrePath`: "pre" with `CUE="PRE"`, dated at 10 s, also at
///   `cuePreUnnamedPath`, an address that does not end in `.m3u8`;
/// - `cuePostPath`: "post" with `CUE="POST"`, dated at 2 s.
public enum InterstitialStream {
    public static let playlistPath = "/vod/playlist.m3u8"
    public static let prerollPath = "/preroll/playlist.m3u8"
    public static let assetPath = "/ads/ad.m3u8"
    public static let plainPath = "/plain/playlist.m3u8"
    public static let listPath = "/list/playlist.m3u8"
    public static let assetListPath = "/ads/list.json"
    public static let secondAssetPath = "/ads2/ad.m3u8"
    public static let cuePrePath = "/cue-pre/playlist.m3u8"
    public static let cuePreUnnamedPath = "/cue-pre/stream"
    public static let queuePath = "/queue/playlist.m3u8"
    public static let slowListPath = "/ads/slow.json"
    public static let nextListPath = "/ads/next.json"
    public static let cuePostPath = "/cue-post/playlist.m3u8"

    /// An interstitial date range `seconds` after the program date.
    private static func dateRange(_ id: String, at seconds: Int, _ attributes: String) -> String {
        #"#EXT-X-DATERANGE:ID="\#(id)",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:\#(String(format: "%02d", seconds))Z",\#(attributes)"#
    }

    public static func serve(_ segments: [String: Data], on server: TestHTTPServer, assetSeconds: Int = 2) {
        let names = segments.keys.sorted()
        let dateRanges = [
            #"#EXT-X-DATERANGE:ID="first",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:04Z",DURATION=3,X-ASSET-URI="/ads/ad.m3u8",X-RESUME-OFFSET=3"#,
            #"#EXT-X-DATERANGE:ID="locked",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:12Z",DURATION=2,X-ASSET-URI="/ads/ad.m3u8",X-RESTRICT="SKIP,JUMP",CUE="ONCE""#,
        ]
        let programDate = "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T10:00:00.000Z"
        serve(names, of: segments, under: "/vod", tags: [programDate] + dateRanges, on: server)
        serve(names, of: segments, under: "/plain", tags: [], on: server)
        serve(names, of: segments, under: "/preroll", tags: [programDate, #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:00Z",X-ASSET-URI="/ads/ad.m3u8",X-RESUME-OFFSET=0"#], on: server)
        serve(Array(names.prefix(assetSeconds)), of: segments, under: "/ads", tags: [], on: server, playlist: "ad.m3u8")
        serve(Array(names.prefix(assetSeconds)), of: segments, under: "/ads2", tags: [], on: server, playlist: "ad.m3u8")
        serve(names, of: segments, under: "/list", tags: [
            programDate,
            dateRange("listed", at: 4, #"DURATION=10,X-ASSET-LIST="/ads/list.json""#),
            dateRange("broken", at: 10, #"DURATION=2,X-ASSET-LIST="/ads/missing.json""#),
            dateRange("hostile", at: 13, #"DURATION=2,X-ASSET-LIST="/ads/hostile.json""#),
        ], on: server)
        // The list names its assets relative to itself.
        server.route(assetListPath, .serve(Data(#"{"ASSETS": [{"URI": "ad.m3u8", "DURATION": \#(assetSeconds)}, {"URI": "../ads2/ad.m3u8", "DURATION": \#(assetSeconds)}]}"#.utf8), contentType: "application/json"))
        server.route("/ads/hostile.json", .serve(Data(#"{"ASSETS": [{"URI": "ad.m3u8", "DURATION": 1e300}]}"#.utf8), contentType: "application/json"))
        serve(names, of: segments, under: "/cue-pre", tags: [
            programDate, dateRange("pre", at: 10, #"X-ASSET-URI="/ads/ad.m3u8",CUE="PRE""#),
        ], on: server)
        serve(names, of: segments, under: "/cue-pre", tags: [
            programDate, dateRange("pre", at: 10, #"X-ASSET-URI="/ads/ad.m3u8",CUE="PRE""#),
        ], on: server, playlist: "stream")
        serve(names, of: segments, under: "/queue", tags: [
            programDate,
            dateRange("slow", at: 4, #"DURATION=2,X-ASSET-LIST="\#(slowListPath)""#),
            dateRange("next", at: 5, #"DURATION=2,X-ASSET-LIST="\#(nextListPath)""#),
        ], on: server)
        let slowList = Data(#"{"ASSETS": [{"URI": "ad.m3u8", "DURATION": \#(assetSeconds)}]}"#.utf8)
        server.route(slowListPath, .handler { [weak server] _ in
            // Held until the next list is asked for (at most 15 s, within the fetcher's 20 s).
            let deadline = ContinuousClock.now + .seconds(15)
            while let server, !server.requests.contains(where: { $0.contains("GET \(nextListPath) ") }),
                  ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            return .init(status: 200, headers: ["Content-Type": "application/json"], body: slowList)
        })
        server.route(nextListPath, .serve(Data(#"{"ASSETS": [{"URI": "../ads2/ad.m3u8", "DURATION": \#(assetSeconds)}]}"#.utf8),
                                          contentType: "application/json"))
        serve(names, of: segments, under: "/cue-post", tags: [
            programDate, dateRange("post", at: 2, #"X-ASSET-URI="/ads/ad.m3u8",CUE="POST""#),
        ], on: server)
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
