import CTrackcastText
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the XML parser bytes it will decode correctly.
///
/// libxml2 honours a BOM and the XML declaration's `encoding`, and assumes UTF-8
/// otherwise. Feeds break that in three common ways, each handled here:
/// - no declaration, but an HTTP `charset` (RFC 7303 lets the header decide):
///   the header's charset is written into the declaration;
/// - "ISO-8859-1" (declared or sent) while the text uses Windows-1252 curly
///   quotes and euro signs in 0x80–0x9F, as browsers assume (WHATWG
///   Encoding), or is in fact UTF-8: transcoded here;
/// - UTF-8 (declared, sent or assumed) with stray Latin-1/Windows-1252 bytes:
///   valid UTF-8 sequences are kept and each invalid byte is read as
///   Windows-1252, so a mostly-UTF-8 feed with one pasted "Caf\xe9" stays readable.
/// The declaration wins over the header when both are given: it is written by
/// the feed generator, the header often by a server default.
/// Valid UTF-8 without contrary declarations, the common case, is passed through
/// untouched after one validation pass.
///
/// What libxml2 gets is always valid UTF-8 without NUL bytes: other charsets
/// (UTF-16, UTF-32, anything iconv knows) are transcoded here, bytes they
/// cannot decode replaced, so every name and text `XMLStreamReader` turns into
/// a Swift string is valid UTF-8. (Foundation's XMLParser, which read feeds
/// before it, force-unwrapped each comment and element name as UTF-8 and
/// trapped on the invalid bytes libxml2 passes on; found by fuzzing, see
/// Fixtures/fuzz-regressions.)
enum FeedInputDecoder {
    /// `data` as valid UTF-8 declared so, without what `UntrustedXMLFilter` removes.
    static func prepared(_ data: Data, httpContentType: String?) -> Data {
        UntrustedXMLFilter.filtered(decoded(data, httpContentType: httpContentType))
    }

    private static func decoded(_ data: Data, httpContentType: String?) -> Data {
        data.withUnsafeBytes { raw -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            if let (encoding, skip) = unicodeEncoding(bytes) {
                return transcodedUnicode(UnsafeBufferPointer(rebasing: bytes[skip...]), from: encoding)
            }
            let bodyStart = hasUTF8BOM(bytes) ? 3 : 0
            let declaration = XMLDeclaration(bytes, from: bodyStart)
            let label = declaration?.encoding ?? httpContentType.flatMap(charset(fromContentType:))
            let document = Document(bytes: bytes, bodyStart: bodyStart, declaration: declaration)
            let body = document.body

            switch label.map(Charset.init(label:)) ?? .utf8 {
            case .windows1252:
                // Read as UTF-8 where the bytes are valid UTF-8, Windows-1252 elsewhere: for real
                // Latin-1 text that is the same (its accented letters are practically never
                // followed by the continuation bytes UTF-8 needs), and it saves feeds labelled
                // Latin-1 that are UTF-8, wholly or in parts pasted from elsewhere.
                return document.redeclaredUTF8(bodyCapacity: 3 * body.count) { writeRepairedUTF8(body, to: $0) }
            case .other(let name):
                if let table = singleByteTable(for: name) {
                    return document.redeclaredUTF8(bodyCapacity: 3 * body.count + 8) { decode(body, byTable: table, into: $0) }
                }
                return iconvToUTF8(body, from: name).withUnsafeBufferPointer { converted in
                    document.redeclaredUTF8(bodyCapacity: 3 * converted.count) { writeRepairedUTF8(converted, to: $0) }
                }
            case .utf8, .unsupported:
                let valid = isValidUTF8(bytes, from: bodyStart)
                    && bytes.baseAddress.map { memchr($0, 0, bytes.count) == nil } ?? true
                let declaredUnsupported = declaration?.encoding.map { Charset(label: $0) == .unsupported } ?? false
                if valid && !declaredUnsupported { return data }
                return document.redeclaredUTF8(bodyCapacity: 3 * body.count) { writeRepairedUTF8(body, to: $0) }
            }
        }
    }

    /// The input split around its XML declaration, if it has one.
    private struct Document {
        var bytes: UnsafeBufferPointer<UInt8>
        var bodyStart: Int
        var declaration: XMLDeclaration?

        /// Everything after the declaration (or the BOM).
        var body: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[(declaration?.end ?? bodyStart)...])
        }

        /// A declaration of UTF-8 first (where libxml2 requires it), then any whitespace
        /// that stood before the original one (line numbers stay those of the feed), then
        /// the body `write` puts in place, at most `bodyCapacity` bytes, returning how many.
        /// Written once where it stays, not built and copied: a copy of a 10 MB feed is
        /// 2,500 pages of fresh memory.
        func redeclaredUTF8(bodyCapacity: Int, writingBody write: (UnsafeMutablePointer<UInt8>) -> Int) -> Data {
            var head = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>".utf8)
            if let declaration { head += bytes[bodyStart..<declaration.start] }
            // Left as malloc gives it, the room the body does not reach is never
            // touched, and goes back to the heap once the body is written.
            // `Data(count:)` cleared it all with memset: three times a
            // Windows-1251 feed's size in fresh pages, each faulted in (a
            // third of the 7 MB corpus feed's `feed parse` in a new process).
            let capacity = head.count + bodyCapacity
            guard let base = malloc(capacity)?.bindMemory(to: UInt8.self, capacity: capacity) else {
                fatalError("out of memory for a transcoded feed of \(capacity) bytes")
            }
            base.update(from: head, count: head.count)
            let length = head.count + write(base + head.count)
            let kept = realloc(base, max(length, 1)) ?? UnsafeMutableRawPointer(base)
            return Data(bytesNoCopy: kept, count: length, deallocator: .free)
        }
    }

    /// A UTF-16 or UTF-32 document as UTF-8, its declaration (which still names
    /// the old encoding once transcoded) replaced.
    private static func transcodedUnicode(_ bytes: UnsafeBufferPointer<UInt8>, from encoding: String) -> Data {
        iconvToUTF8(bytes, from: encoding).withUnsafeBufferPointer { converted in
            let document = Document(bytes: converted, bodyStart: 0, declaration: XMLDeclaration(converted, from: 0))
            let body = document.body
            return document.redeclaredUTF8(bodyCapacity: 3 * body.count) { writeRepairedUTF8(body, to: $0) }
        }
    }

    /// The WHATWG single-byte encodings whose iconv decoders read each byte on
    /// its own. Not CP1255 and CP1258: glibc composes their letters with the
    /// accents written after them.
    static let singleByteEncodings: Set<String> = [
        "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8",
        "ISO-8859-10", "ISO-8859-13", "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "MACINTOSH",
        "CP874", "CP1250", "CP1251", "CP1253", "CP1254", "CP1256", "CP1257", "MAC-CYRILLIC",
    ]

    /// For a single-byte encoding, what iconv makes of each byte on its own, as
    /// `iconvToUTF8` makes it in a stream (U+FFFD where it cannot decode it):
    /// the UTF-8 bytes packed from the lowest, their count in the top byte.
    /// NUL has none: it is dropped, as `writeRepairedUTF8` drops it, so that what
    /// the table decodes needs no repair.
    /// `nil` for any other encoding, and should a byte not come out as one
    /// character (or ASCII not as itself). Through iconv a byte at a time took
    /// about 35 instructions, and half a Windows-1251 feed's parse.
    static func singleByteTable(for encoding: String) -> [UInt32]? {
        guard singleByteEncodings.contains(encoding) else { return nil }
        let descriptor = iconv_open("UTF-8", encoding)
        guard descriptor != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(descriptor) }
        var table = [UInt32](repeating: 0, count: 256)
        for value in 0..<256 {
            var input = CChar(bitPattern: UInt8(value))
            var output: (UInt32, UInt32) = (0, 0)
            let (result, count) = withUnsafeMutablePointer(to: &input) { input in
                withUnsafeMutableBytes(of: &output) { output in
                    var cursor: UnsafeMutablePointer<CChar>? = input
                    var inputLeft = 1
                    var outputCursor: UnsafeMutablePointer<CChar>? = output.baseAddress!.assumingMemoryBound(to: CChar.self)
                    var outputLeft = output.count
                    let result = iconv(descriptor, &cursor, &inputLeft, &outputCursor, &outputLeft)
                    return (result, output.count - outputLeft)
                }
            }
            if result == -1 {
                guard errno == EILSEQ else { return nil }
                table[value] = 3 << 24 | 0xBD_BF_EF
                _ = iconv(descriptor, nil, nil, nil, nil)
            } else {
                let bytes = UInt32(littleEndian: output.0)
                guard (1...3).contains(count), value >= 0x80 || (count == 1 && bytes == UInt32(value)) else { return nil }
                table[value] = UInt32(count) << 24 | bytes & (1 << (8 * UInt32(count)) - 1)
            }
        }
        table[0] = 0
        return table
    }

    /// `bytes` decoded by `singleByteTable`'s table into `out`, which must have room
    /// for 3 × count + 8 bytes: ASCII eight bytes a step, the rest a look-up each.
    /// Returns how many bytes it wrote, valid UTF-8 without NUL.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, byTable table: [UInt32], into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let source = bytes.baseAddress else { return 0 }
        let count = bytes.count
        let target = UnsafeMutableRawPointer(out)
        var i = 0
        var o = 0
        table.withUnsafeBufferPointer { table in
            while i < count {
                if i + 8 <= count {
                    let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                    // No byte over 0x7F and none zero (the classic zero-byte test): copied whole.
                    let zeroBytes = (word &- 0x0101_0101_0101_0101) & ~word
                    if (word | zeroBytes) & 0x8080_8080_8080_8080 == 0 {
                        target.storeBytes(of: word, toByteOffset: o, as: UInt64.self)
                        i += 8
                        o += 8
                        continue
                    }
                }
                let entry = table[Int(source[i])]
                target.storeBytes(of: UInt32(littleEndian: entry & 0x00FF_FFFF), toByteOffset: o, as: UInt32.self)
                o += Int(entry >> 24)
                i += 1
            }
        }
        return o
    }

    /// Converts with iconv, writing U+FFFD for each byte it cannot decode and for
    /// a sequence cut off at the end.
    static func iconvToUTF8(_ bytes: UnsafeBufferPointer<UInt8>, from encoding: String) -> [UInt8] {
        let descriptor = iconv_open("UTF-8", encoding)
        guard descriptor != iconv_t(bitPattern: -1) else { return Array(bytes) }
        defer { iconv_close(descriptor) }
        guard let base = bytes.baseAddress else { return [] }
        var input = UnsafeMutablePointer(mutating: UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self))
        var inputLeft = bytes.count
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        // Uninitialised: what iconv does not reach is never touched.
        return [UInt8](unsafeUninitializedCapacity: bytes.count * 4 + 16) { buffer, produced in
            let start = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            while inputLeft > 0 {
                var output: UnsafeMutablePointer<CChar>? = start + produced
                var outputLeft = buffer.count - produced - replacement.count
                var cursor: UnsafeMutablePointer<CChar>? = input
                let result = iconv(descriptor, &cursor, &inputLeft, &output, &outputLeft)
                input = cursor!
                produced = output! - start
                guard result == -1 else { break }
                guard errno == EILSEQ || errno == EINVAL, outputLeft >= 0 else { break }
                // Undecodable (or cut-off) input: one replacement character, skip a byte.
                for byte in replacement { buffer[produced] = byte; produced += 1 }
                input += 1
                inputLeft -= 1
            }
        }
    }

    /// The `charset` parameter of a Content-Type header value.
    static func charset(fromContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                  pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    enum Charset: Equatable {
        case utf8
        /// Also ISO-8859-1 and US-ASCII, which browsers read as Windows-1252 too.
        case windows1252
        /// Another WHATWG encoding, by its iconv name.
        case other(String)
        /// A label the WHATWG Encoding Standard does not list (or one of its
        /// encodings no feed means): read as UTF-8 rather than fail, and
        /// never handed to iconv (`EncodingLabel`).
        case unsupported

        init(label: String) {
            switch EncodingLabel.encoding(of: label) {
            case .utf8: self = .utf8
            case .windows1252: self = .windows1252
            case .iconv(let name): self = .other(name)
            case .unsupported, nil: self = .unsupported
            }
        }
    }

    // MARK: The XML declaration

    struct XMLDeclaration {
        /// Index of `<?xml`; feeds sometimes put blank lines before it.
        var start: Int
        /// Index just past `?>`.
        var end: Int
        var encoding: String?

        init?(_ bytes: UnsafeBufferPointer<UInt8>, from bodyStart: Int) {
            var start = bodyStart
            while start < bytes.count, start < bodyStart + 256, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
            self.start = start
            let opening = Array("<?xml".utf8)
            guard bytes.count >= start + opening.count + 2,
                  zip(bytes[start...], opening).allSatisfy({ $0 == $1 }),
                  let c = bytes.dropFirst(start + opening.count).first, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
            else { return nil }
            var i = start + opening.count
            // A declaration is short; a missing `?>` within 512 bytes means there is none to trust.
            let limit = min(bytes.count - 1, start + 512)
            while i < limit, !(bytes[i] == UInt8(ascii: "?") && bytes[i + 1] == UInt8(ascii: ">")) { i += 1 }
            guard i < limit else { return nil }
            end = i + 2
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            encoding = Self.attribute("encoding", in: text)
        }

        private static func attribute(_ name: String, in declaration: String) -> String? {
            guard let nameRange = declaration.range(of: name + "=") ?? declaration.range(of: name + " =") else { return nil }
            let rest = declaration[nameRange.upperBound...].drop(while: { $0 == " " })
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            let value = rest.dropFirst().prefix(while: { $0 != quote })
            return value.isEmpty ? nil : String(value)
        }
    }

    // MARK: Bytes

    private static func hasUTF8BOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// A UTF-16 or UTF-32 document, by its BOM or by `<` written in it (as
    /// XML 1.0 appendix F detects them): the encoding and the BOM's length.
    private static func unicodeEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, Int)? {
        guard bytes.count >= 2 else { return nil }
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return ("UTF-32BE", 4)
        case (0xFF, 0xFE, 0x00, 0x00): return ("UTF-32LE", 4)
        case (0x00, 0x00, 0x00, 0x3C): return ("UTF-32BE", 0)
        case (0x3C, 0x00, 0x00, 0x00): return ("UTF-32LE", 0)
        case (0xFE, 0xFF, _, _): return ("UTF-16BE", 2)
        case (0xFF, 0xFE, _, _): return ("UTF-16LE", 2)
        case (0x00, 0x3C, _, _): return ("UTF-16BE", 0)
        case (0x3C, 0x00, _, _): return ("UTF-16LE", 0)
        default: return nil
        }
    }

    /// Whether `bytes` from `start` are well-formed UTF-8, by `tc_utf8_is_valid`
    /// (C, AVX2 where the CPU has it: 7 M instructions for the 10.8 MB realistic
    /// feed, where the Swift loop eight bytes a step took 40 M).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard let base = bytes.baseAddress, start < bytes.count else { return true }
        return tc_utf8_is_valid(base + start, bytes.count - start)
    }

    /// `bytes` written to `out` (room for 3 × count bytes) as valid UTF-8 without
    /// NUL bytes, each byte that starts no well-formed sequence read as Windows-1252
    /// (`tc_utf8_repaired_as_windows1252`: in Swift, a byte at a time with a string
    /// made for each repaired byte, it was 77 M instructions of the 5.4 MB Latin-1
    /// feed's 328 M parse). Returns how many bytes it wrote.
    static func writeRepairedUTF8(_ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        // Nothing to repair: a copy, found by the faster check.
        if isValidUTF8(bytes, from: 0), memchr(base, 0, bytes.count) == nil {
            out.update(from: base, count: bytes.count)
            return bytes.count
        }
        return tc_utf8_repaired_as_windows1252(base, bytes.count, out)
    }
}
