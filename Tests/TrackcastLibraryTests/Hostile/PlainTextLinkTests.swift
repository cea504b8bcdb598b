import Foundation
import Testing
@testable import TrackcastLibrary

/// Addresses in plain-text show notes become links in one pass: the reader
/// that searched the rest of the text again after each "http" took 8 s (debug build) on
/// 8 KB of "http" (the episode page, on the main thread).
@Suite("Links in plain text, found in linear time")
struct PlainTextLinkTests {
    /// The reader before issue 21, to compare with.
    static func reference(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "http", options: .caseInsensitive) {
            out += SafeMarkup.escaped(String(rest[..<start.lowerBound]))
            let candidate = rest[start.lowerBound...].prefix { !$0.isWhitespace && !"<>\"'".contains($0) }
            let address = String(candidate.reversed().drop { ".,;:!?)".contains($0) }.reversed())
            if let url = SafeMarkup.allowedLink(address), address.count > "https://".count {
                out += "<a href=\"\(SafeMarkup.escaped(url))\">\(SafeMarkup.escaped(address))</a>"
                rest = rest[rest.index(start.lowerBound, offsetBy: address.count)...]
            } else {
                out += SafeMarkup.escaped(String(rest[start]))
                rest = rest[start.upperBound...]
            }
        }
        return out + SafeMarkup.escaped(String(rest))
    }

    @Test("the same markup as before on every string of four pieces")
    func sameAsBefore() {
        let pieces = ["http", "HTTPS", "://", "x.org", "/a", " ", ".", ")", "<", "'", "ftp:", "&"]
        var samples = [""]
        for _ in 0..<4 { samples = samples.flatMap { sample in pieces.map { sample + $0 } } }
        samples += ["Notes at https://example.org/x?a=1&b=2. <b>Not</b> file:///etc/passwd http here",
                    "(see http://a.example/b), then https://c.example/d!", "httpfoohttps://e.example/f",
                    "http:///broken http://ok.example/ café https://ü.example/ \u{1}http\u{1}://f.example/"]
        for sample in samples {
            #expect(SafeMarkup.fromPlainText(sample) == Self.reference(sample), "\(sample)")
        }
    }

    @Test("hostile text is read in linear time", arguments: ["http", "http:///", "http://[", "https://a.b/x "])
    func linear(_ unit: String) {
        for size in [8_000, 64_000] {
            let text = String(repeating: unit, count: size / unit.utf8.count)
            var steps = 0
            _ = SafeMarkup.fromPlainText(text, steps: &steps)
            #expect(steps <= 8 * text.utf8.count, "\(unit) × \(size / unit.utf8.count): \(steps) steps")
        }
    }
}
