import Foundation

/// Rewrites the two ampersand mistakes feeds make so an XML parser reads them:
/// HTML named entities (`&nbsp;`, `&eacute;`), which XML does not predefine, become
/// numeric references; a bare `&` ("Q&A") becomes `&amp;`. CDATA sections and
/// comments are left alone, since an ampersand there is already literal.
///
/// Only run when the parser reported such an error: valid feeds never pay for it.
enum XMLEntityRepair {
    static func repaired(_ data: Data) -> Data {
        data.withUnsafeBytes { raw -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            var out = Data(capacity: bytes.count + bytes.count / 64)
            var i = 0
            var copiedUpTo = 0
            func flush(to end: Int) {
                if end > copiedUpTo {
                    out.append(UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<end]))
                }
            }
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "<") {
                    if let end = endOfLiteralSection(bytes, at: i) {
                        i = end
                        continue
                    }
                } else if c == UInt8(ascii: "&") {
                    switch reference(bytes, at: i) {
                    case .xml:
                        break
                    case .html(let scalar, let end):
                        flush(to: i)
                        out.append(contentsOf: "&#\(scalar.value);".utf8)
                        copiedUpTo = end
                        i = end
                        continue
                    case .bare:
                        flush(to: i)
                        out.append(contentsOf: "&amp;".utf8)
                        copiedUpTo = i + 1
                    }
                }
                i += 1
            }
            flush(to: bytes.count)
            return out
        }
    }

    private enum Reference {
        /// Something XML understands (or an unknown name, which no rewrite can save).
        case xml
        case html(Unicode.Scalar, end: Int)
        case bare
    }

    private static func reference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Reference {
        var i = start + 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "#") {
            return HTMLText.decodeEntity(bytes, from: start) == nil ? .bare : .xml
        }
        while i < bytes.count, i - start <= 32, HTMLText.isLetter(bytes[i]) || HTMLText.isDigit(bytes[i]) { i += 1 }
        guard i > start + 1, i < bytes.count, bytes[i] == UInt8(ascii: ";") else { return .bare }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<i])
        if HTMLEntities.xmlPredefined.contains(String(decoding: name, as: UTF8.self)) { return .xml }
        if let scalar = HTMLEntities.scalar(named: name) { return .html(scalar, end: i + 1) }
        return .xml
    }

    /// The index after `<![CDATA[ … ]]>` or `<!-- … -->` starting at `start`.
    private static func endOfLiteralSection(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let terminator: [UInt8]
        if hasPrefix(bytes, at: start, "<![CDATA[") {
            terminator = Array("]]>".utf8)
        } else if hasPrefix(bytes, at: start, "<!--") {
            terminator = Array("-->".utf8)
        } else {
            return nil
        }
        var i = start + 4
        while i + terminator.count <= bytes.count {
            if bytes[i] == terminator[0], bytes[i + 1] == terminator[1], bytes[i + 2] == terminator[2] {
                return i + terminator.count
            }
            i += 1
        }
        return bytes.count
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        guard start + p.count <= bytes.count else { return false }
        for k in 0..<p.count where bytes[start + k] != p[k] { return false }
        return true
    }
}
