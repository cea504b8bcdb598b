import Foundation

/// An HLS stream of three variants served from a `TestHTTPServer`: a
/// master playlist at `/variants/master.m3u8` naming 200, 800 and 3000
/// kbit/s variants (360p, 720p, 1080p), each at `/variants/vN/`, all three
/// over the same segments. Adaptive demuxers choose by the declared
/// bandwidth, so which variant plays shows in the requests: `variant(of:)`.
public enum VariantStream {
    public static let masterPath = "/variants/master.m3u8"
    /// Declared bandwidth in bit/s and height in pixels, by variant number.
    public static let variants: [(number: Int, bandwidth: Int, height: Int)] = [
        (1, 200_000, 360), (2, 800_000, 720), (3, 3_000_000, 1080),
    ]

    /// Serves the master playlist and, under each variant, the segments of
    /// `files` (a single-variant stream's folder: name → contents) and a
    /// media playlist of them `repeats` times over, each time after a
    /// discontinuity: a stream longer than the demuxer fetches ahead, so
    /// segments are still to come when a cap changes while it plays.
    public static func serve(_ files: [String: Data], on server: TestHTTPServer, repeats: Int = 1) {
        var master = ["#EXTM3U", "#EXT-X-VERSION:3"]
        for variant in variants {
            let width = variant.height * 16 / 9
            master += ["#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(width)x\(variant.height)",
                       "v\(variant.number)/playlist.m3u8"]
        }
        server.route(masterPath, .serve(Data((master + [""]).joined(separator: "\n").utf8),
                                        contentType: "application/vnd.apple.mpegurl"))
        let segments = files.keys.filter { $0.hasSuffix(".ts") }.sorted()
        var media = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
        for copy in 0..<max(1, repeats) {
            if copy > 0 { media.append("#EXT-X-DISCONTINUITY") }
            media += segments.flatMap { ["#EXTINF:1.0,", $0] }
        }
        let playlist = Data((media + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").utf8)
        for variant in variants {
            server.route("/variants/v\(variant.number)/playlist.m3u8",
                         .serve(playlist, contentType: "application/vnd.apple.mpegurl"))
            for name in segments {
                server.route("/variants/v\(variant.number)/\(name)", .serve(files[name]!, contentType: "video/mp2t"))
            }
        }
    }

    /// The variant number of a segment request ("GET /variants/v2/segment00003.ts …"), nil for anything else.
    public static func variant(of request: String) -> Int? {
        guard let match = request.firstMatch(of: #/ /variants/v(\d)/segment/#) else { return nil }
        return Int(match.1)
    }

    /// The variants whose segments `requests` fetched, in order.
    public static func segmentVariants(in requests: [String]) -> [Int] {
        requests.compactMap(variant(of:))
    }
}
