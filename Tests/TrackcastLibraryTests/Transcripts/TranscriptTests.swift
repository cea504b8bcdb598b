import Foundation
import Testing
import TrackcastLibrary

@Suite("Transcripts")
struct TranscriptTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/transcripts/" + name))
    }

    @Test("WebVTT: cues with speakers from voice tags, markup and entities removed, NOTE and header skipped")
    func webVTT() throws {
        let transcript = try TranscriptParser.parse(Self.fixture("sample.vtt"), format: .webVTT)
        #expect(transcript.cues.map(\.start) == [0, 4.5, 70.25])
        #expect(transcript.cues.map(\.speaker) == ["Alice", "Bob", "Alice"])
        #expect(transcript.cues[1].text == "Thanks, Alice! It is great to be here.")
        #expect(transcript.cues[2].text == "Let us talk about cafés & tea. And about sleep timers.")
        #expect(transcript.cues[2].end == 75)
    }

    @Test("cue text decodes named and numeric references as feed text does, tags first")
    func entities() throws {
        let vtt = """
            WEBVTT

            00:00.000 --> 00:02.000
            <v Alice>&quot;Rock &amp;amp; roll,&quot; she said &mdash; isn&rsquo;t it &#39;fine&#39;? &#x1F600; &lt;b&gt;&#27;[31m

            """
        let transcript = try TranscriptParser.parse(Data(vtt.utf8), format: .webVTT)
        #expect(transcript.cues.first?.speaker == "Alice")
        #expect(transcript.cues.first?.text == "\"Rock &amp; roll,\" she said \u{2014} isn\u{2019}t it 'fine'? \u{1F600} <b>[31m")
        let srt = "1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf&eacute; &amp; th&#233;\r\n"
        #expect(try TranscriptParser.parse(Data(srt.utf8), format: .subRip).cues.first?.text == "Caf\u{E9} & th\u{E9}")
    }

    @Test("SubRip: comma milliseconds, CRLF lines, hours")
    func subRip() throws {
        let transcript = try TranscriptParser.parse(Self.fixture("sample.srt"), format: .subRip)
        #expect(transcript.cues.map(\.start) == [0, 4.5, 3670.25])
        #expect(transcript.cues[1].text == "Thanks, Alice! It is great to be here.")
        #expect(transcript.cues.allSatisfy { $0.speaker == nil })
    }

    @Test("Podcasting 2.0 JSON: segments with speakers; empty bodies dropped")
    func json() throws {
        let transcript = try TranscriptParser.parse(Self.fixture("sample.json"), format: .json)
        #expect(transcript.cues.count == 3)
        #expect(transcript.cues.map(\.speaker) == ["Alice", "Bob", "Alice"])
        #expect(transcript.cues[2].text == "Let us talk about cafés.")
    }

    @Test("HTML: paragraphs as untimed cues, cite as speaker; no cue under the play head")
    func html() throws {
        let transcript = try TranscriptParser.parse(Self.fixture("sample.html"), format: .html)
        #expect(transcript.cues.map(\.text) == ["Welcome to the show.", "Thanks, Alice! It is great to be here.",
                                                "Music plays & fades."])
        #expect(transcript.cues.map(\.speaker) == ["Alice", "Bob", nil])
        #expect(!transcript.isTimed)
        #expect(TranscriptCursor(transcript).cueIndex(at: 1) == nil)
        #expect(TranscriptCursor(transcript).search("music") == [2])
    }

    @Test("media types name formats; bad input is a clear error")
    func formatsAndErrors() {
        #expect(TranscriptParser.Format(mediaType: "text/vtt") == .webVTT)
        #expect(TranscriptParser.Format(mediaType: "application/x-subrip") == .subRip)
        #expect(TranscriptParser.Format(mediaType: "application/json; charset=utf-8") == .json)
        #expect(TranscriptParser.Format(mediaType: "text/html") == .html)
        #expect(TranscriptParser.Format(mediaType: "audio/mpeg") == nil)
        #expect(throws: TranscriptParser.ParseError.notText) {
            try TranscriptParser.parse(Data([0xFF, 0xFE, 0xFD]), format: .webVTT)
        }
        #expect(throws: TranscriptParser.ParseError.noCues(.webVTT)) {
            try TranscriptParser.parse(Data("WEBVTT\n\nno timings here\n".utf8), format: .webVTT)
        }
        #expect(throws: TranscriptParser.ParseError.noCues(.json)) {
            try TranscriptParser.parse(Data("[1, 2]".utf8), format: .json)
        }
    }
}
