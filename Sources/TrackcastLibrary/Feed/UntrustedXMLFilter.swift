import Foundation

/// Removes from a document the two parts of XML that no feed or subscription
/// list needs and that hurt when strangers write them, before libxml2 sees it:
/// - the document type declaration (`<!DOCTYPE … [ … ]>`): its entity
///   definitions are how a "billion laughs" document expands a few kilobytes
///   into gigabytes, and how external entities would name local files; the
///   references left behind are undeclared and dropped (HTML names such as
///   `&nbsp;` are still repaired by `XMLEntityRepair`);
/// - processing instructions other than the leading XML declaration:
///   Foundation's XMLParser on Linux crashes on one without data (`<?a?>`),
///   found by fuzzing (Fixtures/fuzz-regressions/opml).
/// Each removed part is replaced by the line breaks it contained, so libxml2's
/// line numbers stay those of the document. Comments and CDATA sections are
/// skipped over, since what looks like markup inside them is text.
/// Documents with neither part, the common case, are returned untouched.
enum UntrustedXMLFilter {
    static func filtered(_ data: Data) -> Data {
        data.withUnsafeBytes { raw -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            var removals: [Range<Int>] = []
            var i = 0
            let n = bytes.count
            let declarationStart = leadingDeclarationStart(bytes)
            while i < n {
                guard bytes[i] == UInt8(ascii: "<"), i + 1 < n else {
                    i += 1
                    continue
                }
                if hasPrefix(bytes, at: i, "<!--") {
                    i = end(of: "-->", in: bytes, from: i + 4)
                } else if hasPrefix(bytes, at: i, "<![CDATA[") {
                    i = end(of: "]]>", in: bytes, from: i + 9)
                } else if bytes[i + 1] == UInt8(ascii: "?") {
                    let end = end(of: "?>", in: bytes, from: i + 2)
                    if i != declarationStart { removals.append(i..<end) }
                    i = end
                } else if hasPrefix(bytes, at: i, "<!DOCTYPE") {
                    let end = endOfDoctype(bytes, from: i + 9)
                    removals.append(i..<end)
                    i = end
                } else {
                    i += 1
                }
            }
            guard !removals.isEmpty else { return data }
            var out = Data(capacity: n)
            var copied = 0
            for range in removals {
                out.append(UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
                for byte in bytes[range] where byte == 0x0A { out.append(0x0A) }
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
        var i = start
        let first = terminator.utf8Start.pointee
        while i < bytes.count {
            if bytes[i] == first, hasPrefix(bytes, at: i, terminator) { return i + terminator.utf8CodeUnitCount }
            i += 1
        }
        return bytes.count
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for k in 0..<count where bytes[index + k] != pointer[k] { return false }
        return true
    }
}
