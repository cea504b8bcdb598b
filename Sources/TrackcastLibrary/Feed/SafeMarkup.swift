import Foundation

/// Text from feeds as Pango markup that can hold nothing but what Trackcast
/// allows: paragraphs and line breaks (as newlines), bold, italic, lists (as
/// bullets and numbers) and links to `http`, `https` and `mailto` addresses.
/// Every other tag is dropped (its text kept; scripts, styles and images
/// dropped whole, so nothing remote is ever loaded), every attribute but a
/// link's address is dropped, and all text is escaped: a feed cannot inject
/// Pango markup (`<span>`, `<big>`, fonts), `file:` or `javascript:` links.
///
/// The output is well-formed: tags are balanced, in the order they opened.
public enum SafeMarkup {
    /// HTML show notes as markup.
    public static func fromHTML(_ html: String) -> String {
        var steps = 0
        return fromHTML(html, steps: &steps)
    }

    /// `steps` counts the bytes tag reading looked at, so tests can hold it linear.
    static func fromHTML(_ html: String, steps: inout Int) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var scan = TagScan(bytes)
            defer { steps = scan.steps }
            var writer = Writer(capacity: bytes.count)
            var i = 0
            let n = bytes.count
            while i < n {
                let c = bytes[i]
                if c == UInt8(ascii: "<") {
                    if hasPrefix(bytes, at: i, "<!--") {
                        i = endOf("-->", bytes, from: i + 4)
                        continue
                    }
                    if let tag = readTag(from: i, &scan) {
                        i = tag.end
                        i = writer.apply(tag, &scan, next: i)
                        continue
                    }
                } else if c == UInt8(ascii: "&"), let entity = HTMLText.decodeEntity(bytes, from: i) {
                    if let scalar = entity.scalar { writer.text(scalar) }
                    i = entity.end
                    continue
                } else if HTMLText.isSpace(c) {
                    writer.space()
                    i += 1
                    continue
                }
                // Text (a `<` or `&` that starts nothing is text too), escaped in one go: a
                // character at a time, each made into a string and escaped alone, it cost
                // several times the parse of the feed it came in.
                let end = HTMLText.textRunEnd(bytes, from: i)
                writer.text(UnsafeBufferPointer(rebasing: bytes[i..<end]))
                i = end
            }
            return writer.finished()
        }
    }

    /// Plain text as markup: escaped, with `http(s)` addresses made links.
    public static func fromPlainText(_ text: String) -> String {
        var steps = 0
        return fromPlainText(text, steps: &steps)
    }

    /// How many addresses one word may offer before the rest of it is taken
    /// as text: each is read to the word's end, so without a limit a word of
    /// "http:///" repeated would be read once per "http".
    static let maximumLinkAttempts = 4

    /// `steps` counts the characters looked at, so tests can hold it linear.
    ///
    /// An address starts at any "http" (in any case) and runs to the end of its
    /// word (whitespace, `<`, `>`, quotes), less sentence punctuation after it.
    static func fromPlainText(_ text: String, steps: inout Int) -> String {
        let scalars = text.unicodeScalars
        var out = ""
        var written = scalars.startIndex
        var i = scalars.startIndex
        while i < scalars.endIndex {
            steps += 1
            guard startsHTTP(scalars, at: i) else {
                i = scalars.index(after: i)
                continue
            }
            // Every "http" in this word shares its end.
            let wordEnd = scalars[i...].firstIndex { $0.properties.isWhitespace || "<>\"'".unicodeScalars.contains($0) }
                ?? scalars.endIndex
            var end = wordEnd
            while end > i, ".,;:!?)".unicodeScalars.contains(scalars[scalars.index(before: end)]) {
                end = scalars.index(before: end)
            }
            steps += scalars.distance(from: i, to: wordEnd)
            var attempts = 0
            var start = i
            var link: (url: String, address: String)?
            while start < end, attempts < maximumLinkAttempts {
                if startsHTTP(scalars, at: start), hasSchemeSeparator(scalars, after: start, before: end) {
                    attempts += 1
                    let address = String(scalars[start..<end])
                    steps += address.utf8.count
                    if let url = allowedLink(address), address.count > "https://".count {
                        link = (url, address)
                        break
                    }
                }
                start = scalars.index(after: start)
            }
            guard let link else {
                i = wordEnd
                continue
            }
            out += escaped(String(scalars[written..<start]))
            out += "<a href=\"\(escaped(link.url))\">\(escaped(link.address))</a>"
            written = end
            i = end
        }
        return out + escaped(String(scalars[written...]))
    }

    private static func startsHTTP(_ scalars: String.UnicodeScalarView, at index: String.Index) -> Bool {
        var i = index
        for letter in "http".unicodeScalars {
            guard i < scalars.endIndex, scalars[i].properties.lowercaseMapping == String(letter) else { return false }
            i = scalars.index(after: i)
        }
        return true
    }

    /// Whether "://" or "s://" follows the "http" at `index`, ignoring the
    /// controls `allowedLink` ignores: without it no address starts here.
    private static func hasSchemeSeparator(_ scalars: String.UnicodeScalarView, after index: String.Index,
                                           before end: String.Index) -> Bool {
        var i = scalars.index(index, offsetBy: 4)
        var expected = Substring("s://")
        while i < end, let next = expected.unicodeScalars.first {
            let scalar = scalars[i]
            i = scalars.index(after: i)
            if scalar.value <= 0x20 || scalar.value == 0x7F { continue }
            if scalar.properties.lowercaseMapping == String(next) {
                expected = expected.dropFirst()
            } else if expected.count == 4 && scalar == ":" {
                expected = expected.dropFirst(2) // no "s": "://" follows
            } else {
                return false
            }
        }
        return expected.isEmpty
    }

    /// `text` with the five characters markup gives meaning escaped, and the
    /// control characters Pango refuses dropped.
    public static func escaped(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            appendEscaped(bytes, to: &out)
            return out.withUnsafeBufferPointer(String.init(knownValidUTF8:))
        }
    }

    /// `escaped` on valid UTF-8, onto `out`: runs that need nothing are copied
    /// whole, and what is dropped is dropped a whole character at a time, so
    /// `out` stays valid UTF-8.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var copied = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let byte = bytes[i]
            guard mayNeedEscaping(byte) else {
                i += 1
                continue
            }
            let replacement: StaticString
            var length = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&apos;"
            case 0xC2:
                // U+0080–U+009F, the C1 controls, are C2 80–C2 9F; the rest of C2's are kept.
                guard bytes[i + 1] <= 0x9F else {
                    i += 2
                    continue
                }
                replacement = ""
                length = 2
            case 0xEF:
                // U+FFFE and U+FFFF, which are no characters, are EF BF BE and EF BF BF.
                guard bytes[i + 1] == 0xBF, bytes[i + 2] >= 0xBE else {
                    i += 3
                    continue
                }
                replacement = ""
                length = 3
            default:
                // The other C0 controls and DEL.
                replacement = ""
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
            out.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            i += length
            copied = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<n]))
    }

    /// Whether `escaped` may change the character `byte` starts: the five, C0
    /// controls but tab and line feed, DEL, and the lead bytes of C1 controls
    /// (C2) and of U+FFFE and U+FFFF (EF). Not a continuation byte.
    @inline(__always)
    private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
        if byte < 0x40 { return (escapedBelow0x40 >> UInt64(byte)) & 1 != 0 }
        return byte == 0x7F || byte == 0xC2 || byte == 0xEF
    }

    /// Bits 0–31 (controls) but 9 and 10 (tab, line feed), and `"`, `&`, `'`, `<` and `>`.
    private static let escapedBelow0x40: UInt64 = 0xFFFF_F9FF
        | 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// The address if it may be a link: an absolute `http`, `https` or
    /// `mailto` URL (schemes compared without case, after trimming the
    /// whitespace and controls browsers ignore, so " JavaScript:" is caught too).
    /// A `mailto` keeps only its `subject`, `body` and `cc` fields: mail
    /// clients take `attach=` (Thunderbird, Evolution) to attach a file of the
    /// reader's to the mail, and `bcc` would copy it to whoever wrote the feed.
    public static func allowedLink(_ href: String) -> String? {
        let trimmed = String(href.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init))
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        switch trimmed[..<colon].lowercased() {
        case "http", "https":
            guard trimmed[colon...].hasPrefix("://"), let url = URL(string: trimmed), url.host?.isEmpty == false
            else { return nil }
            return url.absoluteString
        case "mailto":
            return URL(string: keepingMailFields(trimmed)).map(\.absoluteString)
        default:
            return nil
        }
    }

    private static let mailFields: Set<String> = ["subject", "body", "cc"]

    /// `mailto` with only `mailFields` left in its query (names compared
    /// decoded and without case, as RFC 6068 has them) and no fragment.
    private static func keepingMailFields(_ mailto: String) -> String {
        let withoutFragment = mailto.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let question = withoutFragment.firstIndex(of: "?") else { return String(withoutFragment) }
        let kept = withoutFragment[withoutFragment.index(after: question)...].split(separator: "&").filter { field in
            let name = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return mailFields.contains((String(name).removingPercentEncoding ?? String(name)).lowercased())
        }
        let address = withoutFragment[..<question]
        return kept.isEmpty ? String(address) : address + "?" + kept.joined(separator: "&")
    }

    // MARK: Writing

    private enum Inline: Equatable { case bold, italic, link }

    /// Output with HTML's whitespace rules (as `HTMLText`'s plain text), and
    /// the stack of open inline elements, closed in order.
    private struct Writer {
        /// Deeper than show notes ever nest bold, italic and links. Without a
        /// limit, closing an element deep in the stack (and reopening all above
        /// it) written again and again makes markup grow as the square of the tags.
        static let maximumDepth = 8

        /// The markup's UTF-8: input bytes escaped a run at a time, and the tags written.
        var out: [UInt8] = []
        var open: [Inline] = []
        var pendingSpace = false
        var pendingBreaks = 0
        var hasText = false
        /// Ordered lists being written: the next number of each, `nil` for bullets.
        var lists: [Int?] = []

        init(capacity: Int) { out.reserveCapacity(capacity) }

        mutating func space() { pendingSpace = true }

        mutating func breakLine(_ count: Int, accumulate: Bool) {
            pendingBreaks = accumulate ? min(pendingBreaks + count, 2) : max(pendingBreaks, count)
            pendingSpace = false
        }

        /// Text: valid UTF-8, whole characters.
        mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
            flushWhitespace()
            SafeMarkup.appendEscaped(bytes, to: &out)
            hasText = true
        }

        mutating func text(_ scalar: Unicode.Scalar) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
                var count = 0
                for byte in scalar.utf8 {
                    buffer[count] = byte
                    count += 1
                }
                text(UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }

        private mutating func write(_ markup: String) {
            out.append(contentsOf: markup.utf8)
        }

        /// Written before text, not at the end: nothing trails.
        private mutating func flushWhitespace() {
            if hasText {
                if pendingBreaks > 0 {
                    out.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: pendingBreaks))
                } else if pendingSpace {
                    out.append(UInt8(ascii: " "))
                }
            }
            pendingBreaks = 0
            pendingSpace = false
        }

        /// Acts on a tag; returns where reading goes on (past a skipped element's content).
        mutating func apply(_ tag: Tag, _ scan: inout TagScan, next: Int) -> Int {
            switch tag.kind {
            case .bold: toggle(.bold, "<b>", tag)
            case .italic: toggle(.italic, "<i>", tag)
            case .link:
                if tag.isClosing {
                    close(.link)
                } else if let href = tag.href.flatMap({ SafeMarkup.allowedLink(SafeMarkup.hrefValue(scan.bytes, $0)) }),
                          open.count < Self.maximumDepth {
                    close(.link) // links do not nest
                    flushWhitespace()
                    write("<a href=\"\(SafeMarkup.escaped(href))\">")
                    open.append(.link)
                }
            case .lineBreak: breakLine(1, accumulate: true)
            case .block: breakLine(2, accumulate: false)
            case .row: breakLine(1, accumulate: false)
            case .bulletList, .numberedList:
                if tag.isClosing {
                    if !lists.isEmpty { lists.removeLast() }
                } else {
                    lists.append(tag.kind == .numberedList ? 1 : nil)
                }
                breakLine(lists.isEmpty ? 2 : 1, accumulate: false)
            case .listItem where !tag.isClosing:
                breakLine(1, accumulate: false)
                flushWhitespace()
                if let number = lists.last ?? nil {
                    write("\(number). ")
                    lists[lists.count - 1] = number + 1
                } else {
                    write("• ")
                }
                hasText = true
            case .skipContent:
                // Content that is not text for a reader: skipped whole.
                if !tag.isClosing { return SafeMarkup.endOfElement(tag.name, from: next, &scan) }
            default:
                break // unknown tags and images: dropped, their text (if any) kept
            }
            return next
        }

        private mutating func toggle(_ kind: Inline, _ opening: String, _ tag: Tag) {
            if tag.isClosing {
                close(kind)
            } else if open.count < Self.maximumDepth {
                flushWhitespace()
                write(opening)
                open.append(kind)
            }
        }

        /// Closes the innermost `kind` and reopens what was inside it, so tags stay balanced.
        private mutating func close(_ kind: Inline) {
            guard let index = open.lastIndex(of: kind) else { return }
            let reopen = open[(index + 1)...].filter { $0 != .link }
            for element in open[index...].reversed() { write(Self.closing(element)) }
            open.removeSubrange(index...)
            for element in reopen {
                write(element == .bold ? "<b>" : "<i>")
                open.append(element)
            }
        }

        private static func closing(_ kind: Inline) -> String {
            switch kind {
            case .bold: "</b>"
            case .italic: "</i>"
            case .link: "</a>"
            }
        }

        mutating func finished() -> String {
            for element in open.reversed() { write(Self.closing(element)) }
            open.removeAll()
            // Valid: the input's valid UTF-8 cut at ASCII bytes and whole characters, and tags.
            return out.withUnsafeBufferPointer(String.init(knownValidUTF8:))
        }
    }

    // MARK: Reading

    struct Tag {
        /// Where the name is in the input.
        var name: Range<Int>
        /// What the name is to the markup; `nil` for any other tag (dropped, its text kept).
        var kind: TagKind?
        var isClosing: Bool
        /// Where the value of the last `href` attribute is, entities not yet decoded:
        /// a range, so that a tag is plain data, made and dropped at no cost.
        var href: Range<Int>?
        var end: Int
    }

    enum TagKind: Sendable {
        case bold, italic, link, lineBreak, block, row, bulletList, numberedList, listItem, skipContent
    }

    /// Tag names, most common in show notes first.
    private static let tagKinds = TagNameTable<TagKind>([
        ("p", .block), ("br", .lineBreak), ("a", .link), ("li", .listItem), ("b", .bold), ("strong", .bold),
        ("i", .italic), ("em", .italic), ("ul", .bulletList), ("ol", .numberedList), ("div", .block),
        ("h1", .block), ("h2", .block), ("h3", .block), ("h4", .block), ("h5", .block), ("h6", .block),
        ("blockquote", .block), ("pre", .block), ("table", .block), ("section", .block), ("article", .block),
        ("header", .block), ("footer", .block), ("figure", .block), ("hr", .block),
        ("tr", .row), ("dt", .row), ("dd", .row),
        ("script", .skipContent), ("style", .skipContent), ("head", .skipContent), ("title", .skipContent),
        ("iframe", .skipContent), ("object", .skipContent), ("svg", .skipContent), ("template", .skipContent),
        ("noscript", .skipContent),
    ])

    /// Where reading a tag's attributes is, as `TagScan` marks it.
    private enum TagState: UInt8 {
        case between, name, afterName, afterEquals, doubleQuoted, singleQuoted, unquoted
    }

    /// `<name attributes…>` or `</name>`; `nil` when the `<` starts no tag,
    /// or one longer than `TagScan.maximumLength`.
    private static func readTag(from start: Int, _ scan: inout TagScan) -> Tag? {
        let bytes = scan.bytes
        var i = start + 1
        let closing = i < bytes.count && bytes[i] == UInt8(ascii: "/")
        if closing { i += 1 }
        guard i < bytes.count, HTMLText.isLetter(bytes[i]), let limit = scan.limit(forTagAt: start) else { return nil }
        let nameStart = i
        while i < limit, HTMLText.isLetter(bytes[i]) || HTMLText.isDigit(bytes[i]) { i += 1 }
        scan.steps += i - start
        let name = nameStart..<i
        let kind = tagKinds.kind(of: name, in: bytes)
        var href: Range<Int>?
        var state = TagState.between
        var attribute = i..<i
        var valueStart = i
        // Each step reads the byte at `i` or hands it to another state.
        while i < limit, scan.proceeds(at: i, state: state.rawValue) {
            let c = bytes[i]
            switch state {
            case .between:
                if c == UInt8(ascii: ">") { return Tag(name: name, kind: kind, isClosing: closing, href: href, end: i + 1) }
                if HTMLText.isLetter(c) {
                    attribute = i..<i
                    state = .name
                }
                i += 1
            case .name:
                if HTMLText.isLetter(c) || c == UInt8(ascii: "-") {
                    i += 1
                } else {
                    attribute = attribute.lowerBound..<i
                    state = .afterName
                }
            case .afterName:
                if isSpace(c) {
                    i += 1
                } else if c == UInt8(ascii: "=") {
                    state = .afterEquals
                    i += 1
                } else {
                    state = .between // an attribute without a value
                }
            case .afterEquals:
                if isSpace(c) {
                    i += 1
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    state = c == UInt8(ascii: "\"") ? .doubleQuoted : .singleQuoted
                    i += 1
                    valueStart = i
                } else {
                    state = .unquoted
                    valueStart = i
                }
            case .doubleQuoted, .singleQuoted:
                if c == UInt8(ascii: state == .doubleQuoted ? "\"" : "'") {
                    if isHref(bytes, attribute) { href = valueStart..<i }
                    state = .between
                }
                i += 1
            case .unquoted:
                if c != UInt8(ascii: ">"), c > 0x20 {
                    i += 1
                } else {
                    if isHref(bytes, attribute) { href = valueStart..<i }
                    state = .between
                }
            }
        }
        scan.gaveUp()
        return nil
    }

    /// Whether the attribute's name is `href` (in any case).
    private static func isHref(_ bytes: UnsafeBufferPointer<UInt8>, _ attribute: Range<Int>) -> Bool {
        attribute.count == 4 && zip(attribute, "href".utf8).allSatisfy { bytes[$0] | 0x20 == $1 }
    }

    /// An attribute's value, entities decoded.
    private static func hrefValue(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> String {
        HTMLText.decodingEntities(String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self))
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// After `<script>`: the index past `</script>`, or the end.
    static func endOfElement(_ name: Range<Int>, from start: Int, _ scan: inout TagScan) -> Int {
        let bytes = scan.bytes
        var i = start
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/"),
               let tag = readTag(from: i, &scan) {
                if HTMLText.sameTagName(tag.name, name, in: bytes) { return tag.end }
                // Past the tag, not into it: reading never goes back over a tag it read.
                i = tag.end
                continue
            }
            i += 1
        }
        return bytes.count
    }

    private static func endOf(_ terminator: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            if hasPrefix(bytes, at: i, terminator) { return i + terminator.utf8CodeUnitCount }
            i += 1
        }
        return bytes.count
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for k in 0..<count where bytes[index + k] != literal.utf8Start[k] { return false }
        return true
    }
}
