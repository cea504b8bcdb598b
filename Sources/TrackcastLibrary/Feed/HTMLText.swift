import Foundation

/// HTML as feeds use it in show notes, descriptions and, sadly, titles: telling
/// it from plain text, and reducing it to text for list views, notifications
/// and the CLI. A byte scanner, not a DOM: the goal is readable text, fast.
enum HTMLText {
    /// podcastparser's heuristic (`<[a-z][a-z0-9]*(\s.*?>|/?>)`): an opening tag
    /// somewhere. "a < b" and "<3" are text; "<br>", "<p class=x>" are HTML.
    static func looksLikeHTML(_ text: String) -> Bool {
        var steps = 0
        return looksLikeHTML(text, steps: &steps)
    }

    /// `steps` counts the bytes looked at, so tests can hold it linear.
    static func looksLikeHTML(_ text: String, steps: inout Int) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            var i = 0
            let n = bytes.count
            while i < n {
                // To the next `<` by memchr: titles, names and plain notes have none, and
                // were looked at a byte at a time three times over.
                guard let found = memchr(base + i, Int32(UInt8(ascii: "<")), n - i) else { return false }
                i = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if i + 1 < n, isLetter(bytes[i + 1]) {
                    var j = i + 2
                    while j < n, isLetter(bytes[j]) || isDigit(bytes[j]) { j += 1 }
                    if j < n {
                        let c = bytes[j]
                        if c == UInt8(ascii: ">") { return true }
                        if c == UInt8(ascii: "/"), j + 1 < n, bytes[j + 1] == UInt8(ascii: ">") { return true }
                        if isSpace(c) {
                            // With no `>` after this one, no later `<` can open a tag either.
                            let close = bytes[(j + 1)...].firstIndex(of: UInt8(ascii: ">"))
                            steps += (close ?? n) - j
                            return close != nil
                        }
                    }
                }
                i += 1
            }
            return false
        }
    }

    /// Text a person can read: tags dropped, block elements turned into line
    /// breaks, list items bulleted, entities decoded, source indentation and
    /// line wrapping collapsed as a browser would, at most one blank line in a row.
    static func plainText(fromHTML html: String) -> String {
        var steps = 0
        return plainText(fromHTML: html, steps: &steps)
    }

    /// `steps` counts the bytes tag reading looked at, so tests can hold it linear.
    static func plainText(fromHTML html: String, steps: inout Int) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var scan = TagScan(bytes)
            defer { steps = scan.steps }
            var writer = PlainTextWriter(capacity: bytes.count)
            var i = 0
            let n = bytes.count
            while i < n {
                let c = bytes[i]
                if c == UInt8(ascii: "<") {
                    if let end = skipComment(bytes, from: i) {
                        i = end
                        continue
                    }
                    if let tag = readTag(from: i, &scan) {
                        i = tag.end
                        switch blockKinds.kind(of: tag.name, in: bytes) ?? .inline {
                        case .lineBreak:
                            writer.breakLine(blankLine: false, accumulate: true)
                        case .block:
                            writer.breakLine(blankLine: true, accumulate: false)
                        case .row:
                            writer.breakLine(blankLine: false, accumulate: false)
                        case .listItem where !tag.isClosing:
                            writer.breakLine(blankLine: false, accumulate: false)
                            writer.write("•".utf8)
                            writer.space()
                        case .skipContent where !tag.isClosing:
                            i = skipElementContent(from: i, name: tag.name, &scan)
                        default:
                            break
                        }
                        continue
                    }
                } else if c == UInt8(ascii: "&"), let entity = decodeEntity(bytes, from: i) {
                    if let scalar = entity.scalar { writer.write(scalar.utf8) }
                    i = entity.end
                    continue
                } else if isSpace(c) {
                    writer.space()
                    i += 1
                    continue
                }
                let end = textRunEnd(bytes, from: i)
                writer.write(UnsafeBufferPointer(rebasing: bytes[i..<end]))
                i = end
            }
            return writer.string
        }
    }

    /// Named and numeric character references replaced; everything else, tags
    /// included, untouched. For titles and plain descriptions that carry
    /// double-escaped text such as "Rock &amp;amp; Roll".
    static func decodingEntities(_ text: String) -> String {
        var text = text
        let decoded: String? = text.withUTF8 { bytes in
            // By memchr: the string's `utf8` view is read a byte at a time, and even a buffer's `contains`.
            guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "&"), let entity = decodeEntity(bytes, from: i) {
                    if let scalar = entity.scalar { out.append(contentsOf: scalar.utf8) }
                    i = entity.end
                } else {
                    out.append(bytes[i])
                    i += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return decoded ?? text
    }

    // MARK: Scanning

    private enum BlockKind {
        case inline, lineBreak, row, block, listItem, skipContent
    }

    /// Tag names, most common in show notes first.
    private static let blockKinds = TagNameTable<BlockKind>([
        ("p", .block), ("br", .lineBreak), ("li", .listItem), ("ul", .block), ("ol", .block), ("div", .row),
        ("h1", .block), ("h2", .block), ("h3", .block), ("h4", .block), ("h5", .block), ("h6", .block),
        ("blockquote", .block), ("pre", .block), ("table", .block), ("tr", .row), ("dt", .row), ("dd", .row),
        ("section", .block), ("article", .block), ("header", .block), ("footer", .block), ("figure", .block),
        ("hr", .block), ("dl", .block),
        ("script", .skipContent), ("style", .skipContent), ("head", .skipContent), ("title", .skipContent),
    ])

    private struct Tag {
        var name: Range<Int>
        var isClosing: Bool
        var end: Int
    }

    /// `<name …>` or `</name>`, quotes in attributes respected; `nil` when the
    /// `<` starts no tag, or one longer than `TagScan.maximumLength`.
    private static func readTag(from start: Int, _ scan: inout TagScan) -> Tag? {
        let bytes = scan.bytes
        var i = start + 1
        let closing = i < bytes.count && bytes[i] == UInt8(ascii: "/")
        if closing { i += 1 }
        guard i < bytes.count, isLetter(bytes[i]), let limit = scan.limit(forTagAt: start) else { return nil }
        let nameStart = i
        while i < limit, isLetter(bytes[i]) || isDigit(bytes[i]) { i += 1 }
        scan.steps += i - start
        let name = nameStart..<i
        // The reader's state: outside quotes (0), inside "…" (1) or '…' (2).
        var state: UInt8 = 0
        while i < limit, scan.proceeds(at: i, state: state) {
            switch (state, bytes[i]) {
            case (0, UInt8(ascii: ">")): return Tag(name: name, isClosing: closing, end: i + 1)
            case (0, UInt8(ascii: "\"")): state = 1
            case (0, UInt8(ascii: "'")): state = 2
            case (1, UInt8(ascii: "\"")), (2, UInt8(ascii: "'")): state = 0
            default: break
            }
            i += 1
        }
        scan.gaveUp()
        return nil
    }

    /// The end of the text that starts at `start` (whose first byte is taken as
    /// text whatever it is): the next byte that may mean something (`<`, `&`,
    /// whitespace), so that the text is written in one go. A single space
    /// between words goes in with them, as a writer that collapses whitespace
    /// would write it after the word before.
    static func textRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let n = bytes.count
        var end = start + 1
        while end < n {
            let next = bytes[end]
            if next == UInt8(ascii: " "), end + 1 < n, !isMarkupOrSpace(bytes[end + 1]) {
                end += 2
            } else if isMarkupOrSpace(next) {
                break
            } else {
                end += 1
            }
        }
        return end
    }

    /// Whether two tag names (letters and digits) in `bytes` are the same, without case.
    static func sameTagName(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { (bytes[$0] | 0x20) == (bytes[$1] | 0x20) }
    }

    private static func skipComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard matches(bytes, at: start, "<!--") else { return nil }
        var i = start + 4
        while i < bytes.count {
            if matches(bytes, at: i, "-->") { return i + 3 }
            i += 1
        }
        return bytes.count
    }

    /// After `<script>`: everything up to and including `</script>`.
    private static func skipElementContent(from start: Int, name: Range<Int>, _ scan: inout TagScan) -> Int {
        let bytes = scan.bytes
        var i = start
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), let tag = readTag(from: i, &scan) {
                if tag.isClosing, sameTagName(tag.name, name, in: bytes) {
                    return tag.end
                }
                // Past the tag, not into it: reading never goes back over a tag it read.
                i = tag.end
                continue
            }
            i += 1
        }
        return bytes.count
    }

    /// `&name;`, `&#123;`, `&#x1F600;` → the scalar and the index after the `;`;
    /// no scalar for a control character (`&#27;`), which decodes to nothing.
    static func decodeEntity(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (scalar: Unicode.Scalar?, end: Int)? {
        var i = start + 1
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            var radix: UInt32 = 10
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                i += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while i < bytes.count, let digit = digitValue(bytes[i], radix: radix) {
                guard digits < 8 else { return nil }
                value = value * radix + digit
                digits += 1
                i += 1
            }
            guard digits > 0, i < bytes.count, bytes[i] == UInt8(ascii: ";"),
                  value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (FeedControls.isDropped(scalar) ? nil : scalar, i + 1)
        }
        let nameStart = i
        while i < bytes.count, i - nameStart <= 10, isLetter(bytes[i]) || isDigit(bytes[i]) { i += 1 }
        guard i > nameStart, i < bytes.count, bytes[i] == UInt8(ascii: ";") else { return nil }
        guard let scalar = HTMLEntities.scalar(named: UnsafeBufferPointer(rebasing: bytes[nameStart..<i])) else { return nil }
        return (scalar, i + 1)
    }

    private static func digitValue(_ c: UInt8, radix: UInt32) -> UInt32? {
        if isDigit(c) { return UInt32(c - 0x30) }
        if radix == 16 {
            let lower = c | 0x20
            if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") { return UInt32(lower - UInt8(ascii: "a") + 10) }
        }
        return nil
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pattern = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for k in 0..<count where bytes[index + k] != pattern[k] { return false }
        return true
    }

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    /// HTML's whitespace between words.
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
    private static func isMarkupOrSpace(_ c: UInt8) -> Bool { c == UInt8(ascii: "<") || c == UInt8(ascii: "&") || isSpace(c) }

    /// Output with HTML's whitespace rules: spaces and line breaks are only
    /// written when text follows them, so nothing trails and nothing leads.
    private struct PlainTextWriter {
        private var bytes: [UInt8] = []
        private var pendingSpace = false
        private var pendingBreaks = 0

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        mutating func space() { pendingSpace = true }

        /// `accumulate` lets `<br><br>` make a blank line while `</p><p>` stays one.
        mutating func breakLine(blankLine: Bool, accumulate: Bool) {
            let wanted = blankLine ? 2 : 1
            pendingBreaks = accumulate ? min(pendingBreaks + wanted, 2) : max(pendingBreaks, wanted)
            pendingSpace = false
        }

        mutating func write(_ text: some Sequence<UInt8>) {
            if !bytes.isEmpty {
                if pendingBreaks > 0 {
                    bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: pendingBreaks))
                } else if pendingSpace {
                    bytes.append(UInt8(ascii: " "))
                }
            }
            pendingBreaks = 0
            pendingSpace = false
            bytes.append(contentsOf: text)
        }

        /// Valid UTF-8: the input's runs cut at ASCII bytes, and whole characters.
        var string: String { bytes.withUnsafeBufferPointer(String.init(knownValidUTF8:)) }
    }
}
