import Foundation
import Testing
@testable import TrackcastLibrary

/// Text scanners do work in proportion to their input, whatever its shape.
/// Counted, not timed: a quadratic scan at these sizes looks at hundreds of
/// times more bytes than there are, a linear one at a few times as many.
@Suite("Text scanning stays linear in hostile shapes")
struct LinearScanTests {
    /// Shapes that make a tag reader look ahead from each `<`: no `>` at all
    /// (issue 21's feed), every `>` inside quotes, a `<script>` never closed.
    static let shapes: [(name: String, make: @Sendable (Int) -> String)] = [
        ("unclosed tags", { "<b>" + String(repeating: "<a ", count: $0 / 3) }),
        ("quoted closers", { String(repeating: String(repeating: "<a ", count: 400) + "=\">\" ", count: $0 / 1206) }),
        ("script never closed", { "<script>" + String(repeating: "</a ", count: $0 / 4) }),
    ]
    static let sizes = [8_000, 64_000]

    @Test("SafeMarkup reads each byte a bounded number of times", arguments: 0..<shapes.count)
    func safeMarkup(_ shape: Int) {
        for size in Self.sizes {
            let html = Self.shapes[shape].make(size)
            var steps = 0
            _ = SafeMarkup.fromHTML(html, steps: &steps)
            #expect(steps <= 16 * html.utf8.count, "\(Self.shapes[shape].name), \(size) bytes: \(steps) steps")
        }
    }

    @Test("HTMLText reads each byte a bounded number of times", arguments: 0..<shapes.count)
    func plainText(_ shape: Int) {
        for size in Self.sizes {
            let html = Self.shapes[shape].make(size)
            var steps = 0
            _ = HTMLText.plainText(fromHTML: html, steps: &steps)
            #expect(steps <= 16 * html.utf8.count, "\(Self.shapes[shape].name), \(size) bytes: \(steps) steps")
        }
    }

    @Test("telling HTML from text looks at each byte a bounded number of times")
    func looksLikeHTML() {
        for size in Self.sizes {
            let text = String(repeating: "<a ", count: size / 3)
            var steps = 0
            #expect(!HTMLText.looksLikeHTML(text, steps: &steps))
            #expect(steps <= 4 * text.utf8.count, "\(size) bytes: \(steps) steps")
        }
    }

    @Test("a tag longer than the bound is text, one within it a tag")
    func tagLengthBound() {
        let long = "<b title=\"" + String(repeating: "x", count: 3000) + "\">bold</b>"
        #expect(SafeMarkup.fromHTML(long).hasPrefix("&lt;b title="))
        #expect(HTMLText.plainText(fromHTML: long).hasPrefix("<b title="))
        let short = "<b title=\"" + String(repeating: "x", count: 1000) + "\">bold</b>"
        #expect(SafeMarkup.fromHTML(short) == "<b>bold</b>")
        #expect(HTMLText.plainText(fromHTML: short) == "bold")
    }

    @Test("nested inline tags cannot multiply the markup written")
    func nestingBound() {
        // Each round leaves one more bold above the italics, which the next `</i>` closes and reopens.
        let html = String(repeating: "<i>", count: 5000) + String(repeating: "<b></i>", count: 5000)
        let markup = SafeMarkup.fromHTML(html)
        #expect(markup.utf8.count <= 16 * html.utf8.count, "\(markup.utf8.count) bytes of markup")
    }
}
