import Testing
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
}
