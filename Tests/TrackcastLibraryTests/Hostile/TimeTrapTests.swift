import Foundation
import Testing
import TrackcastLibrary

/// Times in chapters, transcripts and feeds that `Duration.seconds(_:)`
/// would trap on (infinite, or past about 1.7e20 s) are dropped or clamped
/// to 0…1e7 s where they are read, so nothing later converts them.
@Suite("Times that would trap are tamed where they are read")
struct TimeTrapTests {
    @Test("a chapters file's huge start is clamped to 1e7 s")
    func chaptersFile() throws {
        let data = Data(#"{"chapters":[{"startTime":1e300,"title":"Far"},{"startTime":"inf","title":"Nowhere"}]}"#.utf8)
        let chapters = try PodcastChaptersFile.parse(data)
        #expect(chapters.map(\.start) == [10_000_000])
    }

    @Test("WebVTT and SubRip cues at infinity are dropped, huge ones clamped", arguments: [
        TranscriptParser.Format.webVTT, .subRip,
    ])
    func timedCues(_ format: TranscriptParser.Format) throws {
        let text = """
            WEBVTT

            inf:00.000 --> inf:01.000
            Never

            1e300:00.000 --> 1e300:01.000
            Far

            00:01.000 --> 00:02.000
            Near
            """
        let transcript = try TranscriptParser.parse(Data(text.utf8), format: format)
        #expect(transcript.cues.map(\.text) == ["Near", "Far"])
        #expect(transcript.cues.map(\.start) == [1, 10_000_000])
        #expect(transcript.cues.map(\.end) == [2, 10_000_000])
    }

    @Test("JSON transcript cues: huge times clamped")
    func jsonCues() throws {
        let data = Data(#"{"segments":[{"startTime":1e300,"endTime":1e301,"body":"Far"},{"startTime":2,"body":"Near"}]}"#.utf8)
        let transcript = try TranscriptParser.parse(data, format: .json)
        #expect(transcript.cues.map(\.start) == [2, 10_000_000])
        #expect(transcript.cues.map(\.end) == [2, 10_000_000])
    }

    @Test("a Podlove chapter start of a trillion hours is clamped")
    func podloveChapter() throws {
        let feed = """
            <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>T</title>
            <item><title>E</title><guid>1</guid><enclosure url="https://example.org/e.mp3" type="audio/mpeg"/>
            <psc:chapters><psc:chapter start="999999999999:00:00" title="Far"/></psc:chapters></item>
            </channel></rss>
            """
        let parsed = try FeedParser().parse(Data(feed.utf8), url: URL(string: "https://example.org/feed.xml")!)
        #expect(parsed.episodes.first?.chapters.map(\.start) == [10_000_000])
    }

    @Test("skip times and resume positions from a library are within 0…1e7 s, however they were stored")
    func storedTimes() {
        let settings = ShowSettings(skipIntro: 1e300, skipOutro: .nan)
        #expect(settings.skipIntro == 10_000_000)
        #expect(settings.skipOutro == 0)
        let position = ResumePosition(position: .infinity, duration: 1e300, updated: Date())
        #expect(position.position == 0)
        #expect(position.duration == 10_000_000)
    }
}
