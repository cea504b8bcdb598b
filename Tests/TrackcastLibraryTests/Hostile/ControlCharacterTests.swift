import Foundation
import Testing
@testable import TrackcastLibrary

/// A feed cannot reach a terminal with control characters: C0 and C1
/// controls are dropped when entities are decoded and when feed text is read.
@Suite("Control characters from feeds")
struct ControlCharacterTests {
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("escape sequences, in character references and in entities escaped twice, are dropped")
    func feed() throws {
        let feed = """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T&#x9b;2J&amp;#27;]0;pwned&amp;#7;X</title>
            <description>D&#x9b;x &amp;#x1B;]52;c;Zm9v&amp;#x07; &#x80;</description>
            <item><title>E&amp;#x1b;[31mred&#x7f;</title><guid>1</guid>
            <description><![CDATA[<p>Notes &#27;[2J and &#x9b;more</p>]]></description>
            <enclosure url="https://example.org/e.mp3" type="audio/mpeg"/></item></channel></rss>
            """
        let parsed = try FeedParser().parse(Data(feed.utf8), url: URL(string: "https://example.org/feed.xml")!)
        #expect(parsed.title == "T2J]0;pwnedX")
        #expect(parsed.description == "Dx ]52;c;Zm9v")
        let episode = try #require(parsed.episodes.first)
        #expect(episode.title == "E[31mred")
        #expect(episode.description.map(Self.hasControls) == false, "\(episode.description ?? "")")
    }

    @Test("feed text loses a control at every offset (the check skips eight bytes a step)")
    func everyOffset() {
        for control in ["\u{1B}", "\u{07}", "\u{7F}", "\u{9B}", "\u{80}"] {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + control + String(repeating: "b", count: 19 - offset)
                #expect(FeedControls.removing(from: text) == String(repeating: "a", count: offset) + String(repeating: "b", count: 19 - offset),
                        "\(control.unicodeScalars.first!.value) at \(offset)")
            }
        }
        let kept = "a\tb\nc\rd \u{85} é \u{A0} 東京 😀"
        #expect(FeedControls.removing(from: kept) == kept)
    }

    @Test("decoding entities drops controls but keeps tabs and line breaks")
    func entities() {
        #expect(HTMLText.decodingEntities("a&#27;b&#x9b;c&#x85;d&#9;e&#10;f&#127;g") == "abc\u{85}d\te\nfg")
        #expect(HTMLText.plainText(fromHTML: "<b>a&#27;[0m</b>&#x9B;b") == "a[0mb")
        #expect(SafeMarkup.fromHTML("<b>a&#27;[0m</b>") == "<b>a[0m</b>")
    }
}
