import Foundation
import Testing
@testable import TrackcastLibrary

/// Reading interstitials from an HLS media playlist, which comes from the network.
@Suite("HLS media playlists")
struct HLSMediaPlaylistTests {
    static let url = URL(string: "https://example.org/show/media.m3u8")!

    /// Ten 2 s segments; the program date of the first is 10:00:00, and of
    /// the sixth (at 10 s) 10:00:10, as a packager writes them.
    static func playlist(dateRanges: [String], endList: Bool = true) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PROGRAM-DATE-TIME:2026-03-01T10:00:00.000Z"]
        lines += dateRanges
        for index in 0..<10 {
            if index == 5 { lines.append("#EXT-X-PROGRAM-DATE-TIME:2026-03-01T10:00:10.000Z") }
            lines += ["#EXTINF:2.000,", "segment\(index).ts"]
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("two interstitials are placed on the timeline through the program date, with their offsets and restrictions")
    func interstitials() throws {
        let text = Self.playlist(dateRanges: [
            #"#EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:04.000Z",DURATION=3.5,X-ASSET-URI="ads/one.m3u8",X-RESUME-OFFSET=0"#,
            #"#EXT-X-DATERANGE:ID="ad2",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:12.5Z",PLANNED-DURATION=4,X-ASSET-LIST="https://ads.example.net/list.json",X-RESTRICT="SKIP,JUMP""#,
            #"#EXT-X-DATERANGE:ID="chapter",CLASS="com.example.chapter",START-DATE="2026-03-01T10:00:01Z""#,
        ])
        let playlist = try HLSMediaPlaylist(text, url: Self.url)
        #expect(playlist.duration == 20)
        #expect(playlist.hasEndList)
        #expect(playlist.interstitials == [
            HLSInterstitial(id: "ad1", start: 4, duration: 3.5, assetURI: URL(string: "https://example.org/show/ads/one.m3u8"),
                            resumeOffset: 0),
            HLSInterstitial(id: "ad2", start: 12.5, duration: 4, assetList: URL(string: "https://ads.example.net/list.json"),
                            forbidsSkip: true, forbidsJump: true),
        ])
        #expect(playlist.interstitials[1].range == 12.5...16.5)
    }

    @Test("CUE's triggers are read: PRE, POST, ONCE; PRE with POST, which the specification forbids, leaves the date to place it")
    func cues() throws {
        func range(_ id: String, _ cue: String) -> String {
            #"#EXT-X-DATERANGE:ID="\#(id)",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8",CUE="\#(cue)""#
        }
        let text = Self.playlist(dateRanges: [range("pre", "PRE"), range("post", "POST,ONCE"), range("once", " ONCE "),
                                              range("both", "PRE,POST"), range("unknown", "SOMETIMES")])
        let cues = try HLSMediaPlaylist(text, url: Self.url).interstitials.map { ($0.id, $0.cue) }
        #expect(cues.map(\.0) == ["pre", "post", "once", "both", "unknown"])
        #expect(cues.map(\.1) == [[.pre], [.post, .once], [.once], [], []])
    }

    @Test("a live playlist has no end list; CRLF line ends read the same")
    func liveAndCRLF() throws {
        let text = Self.playlist(dateRanges: [
            #"#EXT-X-DATERANGE:ID="a",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8""#,
        ], endList: false).replacingOccurrences(of: "\n", with: "\r\n")
        let playlist = try HLSMediaPlaylist(text, url: Self.url)
        #expect(!playlist.hasEndList)
        #expect(playlist.duration == 20)
        #expect(playlist.interstitials.map(\.start) == [2])
    }

    @Test("what is not a playlist, or too large, is refused with a reason")
    func refusals() {
        #expect(throws: HLSPlaylistError.notAPlaylist) { try HLSMediaPlaylist("<html>", url: Self.url) }
        #expect(throws: HLSPlaylistError.notAPlaylist) { try HLSMediaPlaylist("", url: Self.url) }
        let huge = "#EXTM3U\n" + String(repeating: "#", count: HLSMediaPlaylist.maximumSize)
        #expect(throws: HLSPlaylistError.tooLarge(bytes: huge.utf8.count)) { try HLSMediaPlaylist(huge, url: Self.url) }
    }

    @Test("hostile values are skipped, never trusted or trapped on", arguments: [
        // Numbers out of range or not numbers.
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",DURATION=nan,X-RESUME-OFFSET=-5,X-ASSET-URI="a.m3u8""#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",DURATION=1e400,X-RESUME-OFFSET=1e300,X-ASSET-URI="a.m3u8""#,
    ])
    func hostileNumbers(_ attributes: String) throws {
        let playlist = try HLSMediaPlaylist(Self.playlist(dateRanges: ["#EXT-X-DATERANGE:" + attributes]), url: Self.url)
        let interstitial = try #require(playlist.interstitials.first)
        #expect(interstitial.duration == nil && interstitial.resumeOffset == nil)
    }

    @Test("date ranges that cannot be played or placed are dropped", arguments: [
        // No ID; a start before the timeline; a date a thousand years on.
        #"CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8""#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-01T00:00:00Z",X-ASSET-URI="a.m3u8""#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="3026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8""#,
        // Both an asset and a list, or neither; an address that is not the web's.
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8",X-ASSET-LIST="l.json""#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z""#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="file:///etc/passwd""#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="javascript:alert(1)""#,
        // A quote never closed; a date that is no date.
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8"#,
        #"ID="x",CLASS="com.apple.hls.interstitial",START-DATE="yesterday",X-ASSET-URI="a.m3u8""#,
    ])
    func dropped(_ attributes: String) throws {
        let playlist = try HLSMediaPlaylist(Self.playlist(dateRanges: ["#EXT-X-DATERANGE:" + attributes]), url: Self.url)
        #expect(playlist.interstitials == [])
    }

    @Test("without a program date nothing can be placed")
    func noProgramDate() throws {
        let text = Self.playlist(dateRanges: [
            #"#EXT-X-DATERANGE:ID="a",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:02Z",X-ASSET-URI="a.m3u8""#,
        ]).split(separator: "\n").filter { !$0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") }.joined(separator: "\n")
        #expect(try HLSMediaPlaylist(text, url: Self.url).interstitials == [])
    }

    @Test("reading looks at each byte a bounded number of times, whatever the shape", arguments: [
        // A date range of nothing but commas; of quotes never closed; of names without values; one line of a megabyte.
        { (n: Int) in "#EXT-X-DATERANGE:" + String(repeating: ",", count: n) },
        { (n: Int) in "#EXT-X-DATERANGE:" + String(repeating: "A=\"", count: n / 3) },
        { (n: Int) in "#EXT-X-DATERANGE:" + String(repeating: "NAME", count: n / 4) },
        { (n: Int) in String(repeating: "#EXT-X-DATERANGE:A=\"b\",", count: n / 23) },
    ] as [@Sendable (Int) -> String])
    func linear(_ make: @Sendable (Int) -> String) throws {
        for size in [10_000, 200_000] {
            let text = "#EXTM3U\n" + make(size) + "\n#EXT-X-ENDLIST\n"
            var steps = 0
            _ = try HLSMediaPlaylist(text, url: Self.url, steps: &steps)
            #expect(steps <= 4 * text.utf8.count, "\(size) bytes: \(steps) steps")
        }
    }

    @Test("a live playlist read again is placed on the first read's timeline: its window moved on, its dates did not")
    func readAgainOnTheFirstTimeline() throws {
        let range = #"#EXT-X-DATERANGE:ID="late",CLASS="com.apple.hls.interstitial",START-DATE="2026-03-01T10:00:30Z",X-ASSET-URI="ad.m3u8""#
        let first = try HLSMediaPlaylist(Self.playlist(dateRanges: [], endList: false), url: Self.url)
        #expect(first.targetDuration == 2)
        #expect(first.windowStart == 0)
        let origin = try #require(first.timelineStart)
        // 12 s later the window starts at 10:00:12: on its own timeline the break would be at 18 s.
        let later = Self.playlist(dateRanges: [range], endList: false)
            .replacingOccurrences(of: "10:00:00.000Z", with: "10:00:12.000Z")
            .replacingOccurrences(of: "10:00:10.000Z", with: "10:00:22.000Z")
        #expect(try HLSMediaPlaylist(later, url: Self.url).interstitials.map(\.start) == [18])
        let again = try HLSMediaPlaylist(later, url: Self.url, timelineStart: origin)
        #expect(again.interstitials.map(\.start) == [30])
        #expect(again.windowStart == 12)
        #expect(again.timelineStart == origin)
    }

    @Test("a target duration that is no time is not taken")
    func targetDuration() throws {
        for (line, expected) in [("#EXT-X-TARGETDURATION:6", 6.0), ("#EXT-X-TARGETDURATION:0", nil), ("#EXT-X-TARGETDURATION:-2", nil),
                                 ("#EXT-X-TARGETDURATION:1e300", nil), ("#EXT-X-TARGETDURATION:nan", nil)] as [(String, Double?)] {
            let playlist = try HLSMediaPlaylist("#EXTM3U\n\(line)\n#EXTINF:6,\nsegment0.ts\n", url: Self.url)
            #expect(playlist.targetDuration == expected, "\(line)")
        }
    }
}
