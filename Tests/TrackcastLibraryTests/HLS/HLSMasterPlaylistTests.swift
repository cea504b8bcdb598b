import Foundation
import Testing
import TrackcastCore
@testable import TrackcastLibrary

@Suite("HLS master playlist: variants for the data saver")
struct HLSMasterPlaylistTests {
    @Test("each variant's bandwidth and height are read, in order; I-frame and media tags are not variants")
    func variants() {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="en",URI="audio.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aac"
            v720/index.m3u8
            #EXT-X-STREAM-INF:RESOLUTION=640x360,BANDWIDTH=200000\r
            v360/index.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=1920x1080,URI="iframes.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2"
            audio-only/index.m3u8
            """
        #expect(HLSMasterPlaylist.variants(in: text) == [
            StreamVariant(bandwidth: 800_000, height: 720), StreamVariant(bandwidth: 200_000, height: 360),
            StreamVariant(bandwidth: 64_000, height: nil),
        ])
    }

    @Test("hostile numbers are skipped, never trusted or trapped on", arguments: [
        "BANDWIDTH=1e300,RESOLUTION=640x360", "BANDWIDTH=-5,RESOLUTION=640x360", "BANDWIDTH=nan", "BANDWIDTH=0",
        "RESOLUTION=640x360", "BANDWIDTH=\"", "BANDWIDTH=99999999999999999999999999",
    ])
    func hostileBandwidth(attributes: String) {
        #expect(HLSMasterPlaylist.variants(in: "#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\nv.m3u8\n") == [])
    }

    @Test("a resolution that is not two sizes is no height", arguments: [
        "640x", "x360", "640x360x2", "640X99999999999999999999", "-640x360", "640x0", "wide", "",
    ])
    func hostileResolution(resolution: String) {
        #expect(HLSMasterPlaylist.variants(in: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,RESOLUTION=\(resolution)\nv.m3u8\n")
                == [StreamVariant(bandwidth: 1000, height: nil)])
    }

    @Test("reading looks at each byte a bounded number of times, whatever the shape", arguments: [
        { (n: Int) in "#EXT-X-STREAM-INF:" + String(repeating: ",", count: n) },
        { (n: Int) in "#EXT-X-STREAM-INF:" + String(repeating: "A=\"", count: n / 3) },
        { (n: Int) in String(repeating: "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=1x1\n", count: n / 45) },
    ] as [@Sendable (Int) -> String])
    func linear(_ make: @Sendable (Int) -> String) {
        for size in [10_000, 200_000] {
            let text = "#EXTM3U\n" + make(size) + "\n"
            var steps = 0
            _ = HLSMasterPlaylist.variants(in: text, steps: &steps)
            #expect(steps <= 4 * text.utf8.count, "\(size) bytes: \(steps) steps")
        }
    }
}
