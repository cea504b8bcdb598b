import CTrackcastText
import Foundation

/// Removes from a document the two parts of XML that no feed or subscription
/// list needs and that hurt when strangers write them, before libxml2 sees it:
/// - the document type declaration (`<!DOCTYPE … [ … ]>`): its entity
///   definitions are how a "billion laughs" document expands a few kilobytes
///   into gigabytes, and how external entities would name local files; the
///   references left behind are undeclared and dropped (HTML names such as
///   `&nbsp;` are still repaired by `XMLEntityRepair`);
/// - processing instructions: no feed or list needs one, and Foundation's
///   XMLParser on Linux, which read both before `XMLStreamReader`, crashed on
///   one without data (`<?a?>`), found by fuzzing (Fixtures/fuzz-regressions/opml).
///   The leading XML declaration is written anew as
///   `<?xml version="1.0" encoding="UTF-8"?>` (true of every document
///   `FeedInputDecoder` hands on): a malformed one made libxml2 report such a
///   processing instruction too.
/// Each removed part is replaced by the line breaks it contained (or a
/// space), so libxml2's line numbers stay those of the document. Comments and CDATA sections are
/// skipped over, since what looks like markup inside them is text.
/// Documents with none of these, the common case, are returned untouched.
enum UntrustedXMLFilter {
    static func filtered(_ data: Data) -> Data {
        data.withUnsafeBytes { raw -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            var removals: [(range: Range<Int>, isDeclaration: Bool)] = []
            var i = 0
            let n = bytes.count
            let declarationStart = leadingDeclarationStart(bytes)
            // Only a `<` before `!` or `?` can start what is removed or skipped: found by
            // `tc_markup_declaration_index` 32 bytes a step, not by a memchr call for every tag
            // (the filter 12 M instructions of the 10.8 MB realistic feed's parse, now about 3 M).
            while let base = bytes.baseAddress, i < n {
                i = tc_markup_declaration_index(base, n, i)
                guard i < n else { break }
                if hasPrefix(bytes, at: i, "<!--") || hasPrefix(bytes, at: i, "<![CDATA[") {
                    let isComment = bytes[i + 2] == UInt8(ascii: "-")
                    guard let end = find(isComment ? "-->" : "]]>", in: bytes, from: i + (isComment ? 4 : 9)) else {
                        // Never closed: libxml2 reads past the error, and what it hid would be parsed
                        // after all (a fuzzed OPML crashed so). The document is broken from here on.
                        removals.append((i..<n, false))
                        break
                    }
                    if isComment {
                        // libxml2's recovery does not always agree where a broken comment ends
                        // (fuzzing found one): a `<?` inside becomes `< `, harmless in a comment.
                        var k = i + 4
                        while k + 1 < end {
                            if bytes[k] == UInt8(ascii: "<"), bytes[k + 1] == UInt8(ascii: "?") { removals.append(((k + 1)..<(k + 2), false)) }
                            k += 1
                        }
                    }
                    i = end
                } else if bytes[i + 1] == UInt8(ascii: "?") {
                    let end = end(of: "?>", in: bytes, from: i + 2)
                    removals.append((i..<end, i == declarationStart))
                    i = end
                } else if hasPrefix(bytes, at: i, "<!DOCTYPE") {
                    let end = endOfDoctype(bytes, from: i + 9)
                    removals.append((i..<end, false))
                    i = end
                } else {
                    i += 1
                }
            }
            // Nothing but a declaration that is already the one written: untouched.
            if removals.isEmpty || (removals.count == 1 && removals[0].isDeclaration
                                    && bytes[removals[0].range].elementsEqual(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)) {
                return data
            }
            var out = Data(capacity: n)
            var copied = 0
            for (range, isDeclaration) in removals {
                out.append(UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
                if isDeclaration { out.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) }
                // At least a space: what stood either side must not join into new markup
                // ("<" + "<?a?>" + "?b?>" would make "<?b?>"; fuzzing found it).
                let lineBreaks = bytes[range].lazy.filter { $0 == 0x0A }.count
                out.append(contentsOf: lineBreaks > 0 ? [UInt8](repeating: 0x0A, count: lineBreaks) : [0x20])
                copied = range.upperBound
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[copied...]))
            return out
        }
    }

    /// Where `<?xml ` stands if only whitespace (or a UTF-8 BOM) precedes it.
    private static func leadingDeclarationStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        guard hasPrefix(bytes, at: i, "<?xml"), i + 5 < bytes.count,
              [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5]) else { return nil }
        return i
    }

    /// The index after the `>` closing a DOCTYPE whose name starts at `start`:
    /// quoted literals and the bracketed internal subset (with its comments) may hold `>`.
    private static func endOfDoctype(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        var depth = 0
        var quote: UInt8?
        while i < bytes.count {
            let c = bytes[i]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if hasPrefix(bytes, at: i, "<!--") {
                i = end(of: "-->", in: bytes, from: i + 4)
                continue
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if c == UInt8(ascii: ">"), depth == 0 {
                return i + 1
            }
            i += 1
        }
        return bytes.count
    }

    /// The index after the first `terminator` at or after `start`; the end if there is none.
    private static func end(of terminator: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        find(terminator, in: bytes, from: start) ?? bytes.count
    }

    /// The index after the first `terminator` at or after `start`, if there is one.
    private static func find(_ terminator: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while let candidate = index(of: terminator.utf8Start.pointee, in: bytes, from: i) {
            if hasPrefix(bytes, at: candidate, terminator) { return candidate + terminator.utf8CodeUnitCount }
            i = candidate + 1
        }
        return nil
    }

    /// The first `byte` at or after `start`: `memchr`, which reads many bytes a step.
    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for k in 0..<count where bytes[index + k] != pointer[k] { return false }
        return true
    }
}
