import Foundation
import Testing
@testable import TrackcastLibrary

/// The hand readers of transcript markup give what the regular expressions
/// they replace gave, and read each byte a bounded number of times.
@Suite("Transcript markup read by hand")
struct TranscriptMarkupTests {
    /// Short strings from the characters the patterns care about, every one of them.
    static let pieces = ["<", ">", "v", ".", " ", "a", "/", "b"]
    static var samples: [String] {
        var samples = [""]
        for _ in 0..<5 { samples = samples.flatMap { sample in pieces.map { sample + $0 } } }
        return samples
    }

    @Test("tags are removed as <[^>]*> removed them")
    func stripping() {
        var markup = TranscriptMarkup()
        for sample in Self.samples + ["<b>bold</b> and <i>it", "a < b > c", "café <u>ü</u>"] {
            #expect(markup.strippingTags(sample)
                    == sample.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression), "\(sample)")
        }
    }

    @Test("the voice tag is found as <v(\\.[^ >]*)? ([^>]+)> found it")
    func voice() {
        var markup = TranscriptMarkup()
        for sample in Self.samples + ["<v Alice>Hi", "<v.loud.fast Bob Smith>Hey</v>", "x <v.a> <v  >y>"] {
            let expected = sample.range(of: #"<v(\.[^ >]*)? ([^>]+)>"#, options: .regularExpression).map { range in
                let tag = sample[range]
                var line = sample
                line.removeSubrange(range)
                return String(tag.dropFirst(2).drop { $0 != " " }.dropFirst().dropLast()) + "|" + line
            }
            #expect(markup.voice(in: sample).map { $0.speaker + "|" + $0.line } == expected, "\(sample)")
        }
    }

    @Test("scripts, styles and citations are found as the (?is) expressions found them")
    func elements() {
        var markup = TranscriptMarkup()
        let samples = ["<script>x</script>a<STYLE type=t>y</Style>b", "<scriptx>1</script>", "<script>open",
                       "<style>a</script>b", "<script>a</script><script>b", "k<cite>A</cite> says <CITE>B</cite>"]
        for sample in samples {
            #expect(markup.removingScriptsAndStyles(sample) == sample.replacingOccurrences(
                of: "(?is)<(script|style)[^>]*>.*?</\\1>", with: "", options: .regularExpression), "\(sample)")
            var uncited = sample
            for range in markup.citations(in: sample).reversed() { uncited.removeSubrange(range) }
            #expect(uncited == sample.replacingOccurrences(of: "(?is)<cite>.*?</cite>", with: "",
                                                          options: .regularExpression), "\(sample)")
        }
    }

    @Test("hostile lines are read in linear time", arguments: [8_000, 64_000])
    func linear(_ size: Int) {
        var markup = TranscriptMarkup()
        let lines = [
            String(repeating: "<b ", count: size / 3),
            String(repeating: "<v.", count: size / 3) + ">",
            String(repeating: "<v.x ", count: size / 5) + "<v >",
            String(repeating: "<script>", count: size / 8),
            String(repeating: "<style>", count: size / 7) + String(repeating: "<script>", count: size / 8),
            String(repeating: "<cite>", count: size / 6),
            String(repeating: "<cite></cite>", count: size / 13),
        ]
        for line in lines {
            let before = markup.steps
            _ = markup.strippingTags(line)
            _ = markup.voice(in: line)
            _ = markup.removingScriptsAndStyles(line)
            _ = markup.citations(in: line)
            #expect(markup.steps - before <= 12 * line.utf8.count, "\(line.prefix(12))…: \(markup.steps - before) steps")
        }
    }

    @Test("a page of many citations and unclosed tags still reads as paragraphs")
    func htmlPage() throws {
        let page = "<p><cite>Ann:</cite> " + String(repeating: "<cite>x</cite><b ", count: 4_000) + "end</p>"
        let transcript = try TranscriptParser.parse(Data(page.utf8), format: .html)
        #expect(transcript.cues.first?.speaker == "Ann")
        // No `>` follows the first `<b`, so it and all after it are text.
        #expect(transcript.cues.first?.text == (Array(repeating: "<b", count: 4_000) + ["end"]).joined(separator: " "))
    }
}
