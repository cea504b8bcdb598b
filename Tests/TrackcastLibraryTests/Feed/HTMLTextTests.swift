import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("HTML text")
struct HTMLTextTests {
    @Test("what counts as HTML", arguments: [
        ("<h1>HELLO</h1>", true),
        ("x <br> y", true),
        ("line<br/>", true),
        ("<p class=\"a\">x</p>", true),
        ("<P>upper</P>", true),
        ("a < b < c", false),
        ("I <3 podcasts", false),
        ("plain text", false),
        ("5 <b and no close", false),
        ("", false),
    ])
    func looksLikeHTML(_ text: String, _ isHTML: Bool) {
        #expect(HTMLText.looksLikeHTML(text) == isHTML)
    }

    @Test("HTML reduced to readable text", arguments: [
        ("<h1>This is a <em>test</em></h1>", "This is a test"),
        ("<p>Full</p>", "Full"),
        ("<p>One</p>\n\n\n<p>Two</p>", "One\n\nTwo"),
        ("a<br>b<br/><br />c", "a\nb\n\nc"),
        ("<ul><li>x</li><li> y </li></ul>after", "• x\n• y\n\nafter"),
        ("  lots   of\n  wrapped\tsource  ", "lots of wrapped source"),
        ("<script>var x = '<p>';</script>kept<style>p {}</style>", "kept"),
        ("<!-- hidden <p> -->shown", "shown"),
        ("&lt;tag&gt; &amp; &quot;q&quot; &#8217; &#x263A; &eacute; &bogus; &#0;", "<tag> & \"q\" ’ ☺ é &bogus; &#0;"),
        ("a < b and c > d", "a < b and c > d"),
        ("<a href='x>y'>link</a> text", "link text"),
        ("unclosed <b", "unclosed <b"),
        ("<div>row</div><div>row</div>", "row\nrow"),
        ("<H1>Up</H1><DIV>x</DIV><SCRIPT>y</Script>z", "Up\n\nx\nz"),
    ])
    func plainText(_ html: String, _ text: String) {
        #expect(HTMLText.plainText(fromHTML: html) == text)
    }

    @Test("entities decoded, everything else untouched", arguments: [
        ("Rock &amp; Roll", "Rock & Roll"),
        ("AT&T", "AT&T"),
        ("Q&A; session", "Q&A; session"),
        ("&lt;b&gt;", "<b>"),
        ("no entities", "no entities"),
        ("&AElig;&thetasym;&zwnj;&Alpha;&alpha;&rsquo;&le;", "Æϑ\u{200C}Αα’≤"),
        // Names are matched with their case, and none is longer than eight letters.
        ("&AMP; &Amp; &thetasymx; &Rsquo;", "&AMP; &Amp; &thetasymx; &Rsquo;"),
    ])
    func decodingEntities(_ text: String, _ decoded: String) {
        #expect(HTMLText.decodingEntities(text) == decoded)
    }

    @Test("whitespace squashing, as podcastparser's squash_whitespace", arguments: [
        (" some\t   text  with a    lot of   spaces ", "some text with a lot of spaces"),
        ("already clean", "already clean"),
        ("no\u{A0}break", "no break"),
        ("", ""),
    ])
    func squashing(_ text: String, _ squashed: String) {
        #expect(FeedText.squashingWhitespace(text) == squashed)
    }

    @Test("line breaks survive in descriptions, as podcastparser's squash_whitespace_not_nl")
    func squashingKeepingNewlines() {
        #expect(FeedText.squashingWhitespaceKeepingNewlines(" linefeeds\ncarriage\r  returns ") == "linefeeds\ncarriage\r returns")
        #expect(FeedText.squashingWhitespaceKeepingNewlines("\n\n a  \n  b \n") == "a \n b")
    }

    /// The check steps eight bytes at a time over words and single spaces, so
    /// each kind of whitespace is put at every offset of a word, after words
    /// of one and of two bytes a letter, single-spaced, and at either end.
    @Test("whitespace is found wherever it falls in the eight bytes read at a time")
    func squashingAtEveryOffset() {
        let spaces = [" ", "  ", "\t", "\n", "\u{1}", "\u{7F}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{205F}", "\u{3000}"]
        for space in spaces {
            for offset in 0..<17 {
                for filler in ["a", "ω", "a b"] {
                    let before = String(repeating: filler, count: offset)
                    for text in [before + space + "bcdefghijklmnop", before + space, space + before] {
                        let expected = text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace)
                            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
                        #expect(FeedText.squashingWhitespace(text) == expected, "\(Array(text.unicodeScalars.map(\.value)))")
                    }
                }
            }
        }
    }

    /// Text that needs no squashing is returned as it is, checked on its
    /// bytes; this holds that check to Unicode's White_Space on text in many
    /// scripts with every kind of whitespace anywhere, one at a time or in runs.
    @Test("squashing agrees with Unicode's White_Space on text in many scripts")
    func squashingAgreesWithUnicode() {
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        let words = ["a", "word", "é", "ωρα", "Ёлка", "مرحبا", "東京", "🎧", "\u{10FFFF}", "\u{301}", "\u{7F}"]
        let spaces = [" ", "  ", "\t", "\n", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{202F}", "\u{205F}", "\u{3000}"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 8) {
                text += words[Int(random.next() % UInt64(words.count))]
                if random.next() % 3 == 0 { text += spaces[Int(random.next() % UInt64(spaces.count))] } else { text += " " }
            }
            if random.next() % 2 == 0 { text = String(text.dropLast()) }
            let expected = text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace)
                .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
            #expect(FeedText.squashingWhitespace(text) == expected, "\(Array(text.unicodeScalars.map(\.value))), seed \(seed)")
        }
    }
}
