import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Show notes as safe Pango markup")
struct SafeMarkupTests {
    @Test("the allowed subset survives: paragraphs, breaks, bold, italic, lists, web and mail links")
    func allowed() {
        let html = """
            <p>First <b>bold</b> and <strong>strong</strong>, <i>italic</i> and <em>em</em>.</p>
            <p>Line<br>break</p><ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>
            <a href="https://example.org/a?b=1&amp;c=2">site</a> <a href='mailto:host@example.org'>mail</a>
            """
        #expect(SafeMarkup.fromHTML(html) == """
            First <b>bold</b> and <b>strong</b>, <i>italic</i> and <i>em</i>.

            Line
            break

            • one
            • two

            1. first
            2. second

            <a href="https://example.org/a?b=1&amp;c=2">site</a> <a href="mailto:host@example.org">mail</a>
            """)
    }

    @Test("Pango's own markup and every other tag are dropped, their text kept and escaped", arguments: [
        ("<span foreground='red' size='xx-large'>big</span>", "big"),
        ("<big>B</big><tt>t</tt><sub>s</sub><u>u</u><s>x</s>", "Btsux"),
        ("<font face='Comic Sans'>f</font>", "f"),
        ("<b onclick='x()'>b</b>", "<b>b</b>"),
        ("5 &lt; 6 &amp;&amp; 7 > 3 & done", "5 &lt; 6 &amp;&amp; 7 &gt; 3 &amp; done"),
        ("a < b", "a &lt; b"),
        ("&lt;span&gt;escaped&lt;/span&gt;", "&lt;span&gt;escaped&lt;/span&gt;"),
        ("quote \" and '", "quote &quot; and &apos;"),
        ("<script>alert(1)</script>after", "after"),
        ("<style>b { color: red }</style>after", "after"),
        ("<iframe src='https://evil.example'>frame</iframe>after", "after"),
        ("<!-- <b>hidden</b> -->shown", "shown"),
        ("control\u{1}\u{7F}\u{85}chars", "controlchars"),
    ])
    func dropped(_ html: String, _ markup: String) {
        #expect(SafeMarkup.fromHTML(html) == markup)
    }

    @Test("links anywhere but http(s) and mailto lose their link, keep their text", arguments: [
        "javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "jav&#x61;script:alert(1)",
        "file:///etc/passwd", "FILE:///home", "data:text/html,<b>x</b>", "ftp://example.org/x",
        "/relative/path", "vbscript:x", "https:relative", "http://",
    ])
    func badLinks(_ href: String) {
        #expect(SafeMarkup.fromHTML("<a href=\"\(href)\">text</a>") == "text")
    }

    @Test("mailto links keep only subject, body and cc: attach (a file of the reader's, sent by their mail client), bcc, to and the rest are dropped", arguments: [
        ("mailto:host@example.org?subject=Hi%20there&body=Text&cc=b@example.org&attach=/home/me/.ssh/id_rsa",
         "mailto:host@example.org?subject=Hi%20there&body=Text&cc=b@example.org"),
        ("mailto:host@example.org?attach=%2Fetc%2Fpasswd", "mailto:host@example.org"),
        ("mailto:host@example.org?Attachment=x&BCC=spy@example.org&to=other@example.org&Subject=S",
         "mailto:host@example.org?Subject=S"),
        ("MAILTO:host@example.org?body=a%26b", "MAILTO:host@example.org?body=a%26b"),
        ("mailto:host@example.org", "mailto:host@example.org"),
    ])
    func mailto(_ href: String, _ kept: String) {
        #expect(SafeMarkup.allowedLink(href) == kept)
    }

    @Test("images are never loaded: no element, no address")
    func images() {
        #expect(SafeMarkup.fromHTML("a<img src=\"https://tracker.example/p.png\" alt=\"x\">b") == "ab")
    }

    @Test("tags stay balanced however the HTML nests or leaves them open")
    func balanced() {
        #expect(SafeMarkup.fromHTML("<b>bold <i>both</b> italic</i>") == "<b>bold <i>both</i></b><i> italic</i>")
        #expect(SafeMarkup.fromHTML("<b><i>open") == "<b><i>open</i></b>")
        #expect(SafeMarkup.fromHTML("</b></i></a>stray") == "stray")
        #expect(SafeMarkup.fromHTML("<a href='https://a.example'>a <a href='https://b.example'>b</a>")
                == "<a href=\"https://a.example\">a</a> <a href=\"https://b.example\">b</a>")
    }

    @Test("a title with markup characters is escaped literally")
    func title() {
        #expect(SafeMarkup.escaped("Q&A: <b>not bold</b>") == "Q&amp;A: &lt;b&gt;not bold&lt;/b&gt;")
    }

    @Test("escaping a run of bytes at a time writes what escaping a character at a time writes")
    func escapingRuns() {
        // The rule, a character at a time.
        func reference(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&apos;"
                case "\n", "\t": out.unicodeScalars.append(scalar)
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFFFE...0xFFFF).contains(scalar.value):
                    continue
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        // Around every byte the escaping looks at: controls, the C1 controls and their
        // neighbours under the lead byte C2, U+FFFE and U+FFFF and theirs under EF.
        let pieces = ["a", "word ", "&", "<", ">", "\"", "'", "\n", "\t", "\r", "\u{1}", "\u{1F}", "\u{7F}", "\u{80}",
                      "\u{85}", "\u{9F}", "\u{A0}", "©", "é", "日", "😀", "\u{FB01}", "\u{FF21}", "\u{FFBF}", "\u{FFFD}",
                      "\u{FFFE}", "\u{FFFF}", "\u{FEFF}"]
        var random = SplitMix64(seed: 6)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(SafeMarkup.escaped(text) == reference(text), "\(text.debugDescription)")
        }
    }

    @Test("tag names are read without case")
    func tagCase() {
        #expect(SafeMarkup.fromHTML("<STRONG>s</Strong><EM>e</em><A HREF='https://a.example'>l</A><SCRIPT>x</script>t<OL><LI>one</OL>")
                == "<b>s</b><i>e</i><a href=\"https://a.example\">l</a>t\n1. one")
    }

    @Test("plain text is escaped and its web addresses become links")
    func plainText() {
        #expect(SafeMarkup.fromPlainText("Notes at https://example.org/x?a=1&b=2. <b>Not</b> file:///etc/passwd http here")
                == "Notes at <a href=\"https://example.org/x?a=1&amp;b=2\">https://example.org/x?a=1&amp;b=2</a>. "
                + "&lt;b&gt;Not&lt;/b&gt; file:///etc/passwd http here")
    }
}
