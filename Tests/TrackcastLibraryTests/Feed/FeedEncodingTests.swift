import CTrackcastText
import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// Real non-UTF-8 bytes in the fixtures: "Caf\xE9 \x93quoted\x94 costs \x805" in
/// the title, "Episode \x96 one" (an en dash in Windows-1252) in the item.
@Suite("feed encodings")
struct FeedEncodingTests {
    static let windows1252Title = "Café “quoted” costs €5"

    @Test("the input's UTF-8 check agrees with Swift's on text in many scripts with bad bytes anywhere")
    func validationAgreesWithSwift() {
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        let pieces = ["a", " ", "word ", "é", "ωρα", "Ёлка", "مرحبا", "東京", "🎧", "\u{10FFFF}"].map { Array($0.utf8) }
        // Lone continuation, overlong, surrogate, above U+10FFFF, cut-off lead bytes, Latin-1,
        // an overlong three-byte form, two- and three-byte sequences cut off or ending in ASCII.
        let bad: [[UInt8]] = [[0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0],
                             [0xE9], [0xE0, 0x80, 0x80], [0xEE, 0x80], [0xE4, 0xB8, 0x41], [0xD0, 0x41], [0xD0, 0xD0, 0x80], [0xFF]]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 40) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            if random.next() % 2 == 0 {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                bytes.insert(contentsOf: bad[Int(random.next() % UInt64(bad.count))], at: at)
            }
            let ours = bytes.withUnsafeBufferPointer { FeedInputDecoder.isValidUTF8($0, from: 0) }
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes), seed \(seed)")
        }
    }

    /// Both paths of the C check (AVX2 where the CPU has it, and the portable one)
    /// against the standard library's validation.
    static func checkAgreesWithSwift(_ bytes: [UInt8], _ context: @autoclosure () -> String) {
        let swift = String(validating: bytes, as: UTF8.self) != nil
        let decoder = bytes.withUnsafeBufferPointer { FeedInputDecoder.isValidUTF8($0, from: 0) }
        let portable = bytes.withUnsafeBufferPointer { tc_utf8_is_valid_portable($0.baseAddress, $0.count) }
        #expect(decoder == swift && portable == swift, "decoder \(decoder), portable \(portable), Swift \(swift): \(context())")
    }

    @Test("the UTF-8 check finds each invalid sequence at every offset around its 32- and 64-byte blocks, in ASCII and in other scripts, and at the end")
    func validationAtEveryBlockOffset() {
        let invalid: [[UInt8]] = [
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], // overlong
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], // surrogates
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF], // above U+10FFFF
            [0x80], [0xBF], [0xC3, 0xA9, 0xA9], [0xE4, 0xB8, 0xAD, 0x80], // stray continuations
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xE4, 0x41], [0xF0, 0x9F, 0x41], // cut short
        ] + (0xF5...0xFF).map { [UInt8($0)] } + [[0xC0], [0xC1]]
        // Valid at the edges of each class, which a check too strict would refuse.
        let valid: [[UInt8]] = [[0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
                                [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0x00]]
        // ASCII (whole blocks skipped) and text in two- to four-byte characters (every byte checked).
        let fillers = [Array(repeating: UInt8(ascii: "a"), count: 160), Array(String(repeating: "é東🎧z", count: 16).utf8.prefix(160))]
        for sequence in invalid + valid {
            for filler in fillers {
                for offset in 0..<64 + 32 {
                    // Over whole characters of the filler only, so that the filler itself stays valid.
                    let start = (offset...).first { filler[$0] & 0xC0 != 0x80 }!
                    var inside = filler
                    inside.insert(contentsOf: sequence, at: start)
                    Self.checkAgreesWithSwift(inside, "\(sequence) at \(start)")
                    Self.checkAgreesWithSwift(Array(filler[..<start]) + sequence, "\(sequence) ending the input at \(start)")
                }
            }
        }
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        // Invalid sequences among random characters, a few hundred bytes long: several blocks.
        // About half of them valid.
        let characters = ["a", "word ", "é", "ωρα", "東京", "🎧", "\u{10FFFF}", "\u{80}"].map { Array($0.utf8) }
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 150) {
                bytes += random.next() % 100 == 0 ? invalid[Int(random.next() % UInt64(invalid.count))]
                    : characters[Int(random.next() % UInt64(characters.count))]
            }
            Self.checkAgreesWithSwift(bytes, "\(bytes), seed \(seed)")
        }
    }

    @Test("repairing keeps every well-formed character, drops NUL and reads each other byte as Windows-1252, in every script and across blocks")
    func repairAgreesWithSwift() {
        // What each byte 0x80-0x9F is in Windows-1252 (WHATWG: its holes are the C1 controls).
        let windows1252High: [UInt32] = [0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039,
                                         0x152, 0x8D, 0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                         0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178]
        // The repair by the standard library: the well-formed character starting at each byte, if one does.
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [], i = 0
            while i < bytes.count {
                if bytes[i] == 0 { i += 1; continue }
                if let length = (1...4).first(where: { i + $0 <= bytes.count && String(validating: bytes[i..<i + $0], as: UTF8.self) != nil }) {
                    out += bytes[i..<i + length]
                    i += length
                } else {
                    let byte = bytes[i]
                    out += String(Unicode.Scalar(byte < 0xA0 ? windows1252High[Int(byte) - 0x80] : UInt32(byte))!).utf8
                    i += 1
                }
            }
            return out
        }
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        let characters = ["a", "plain ascii words ", "é", "ωρα", "東京", "🎧", "\u{10FFFF}", "\u{80}"].map { Array($0.utf8) }
        // Every byte once, then a few hundred bytes of characters with any byte between them.
        var inputs = [(0...255).map(UInt8.init)]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 120) {
                bytes += random.next() % 8 == 0 ? [UInt8(truncatingIfNeeded: random.next())] : characters[Int(random.next() % UInt64(characters.count))]
            }
            inputs.append(bytes)
        }
        for bytes in inputs {
            let repaired = bytes.withUnsafeBufferPointer { bytes in
                [UInt8](unsafeUninitializedCapacity: 3 * bytes.count) { $1 = FeedInputDecoder.writeRepairedUTF8(bytes, to: $0.baseAddress!) }
            }
            #expect(repaired == expected(bytes), "\(bytes), seed \(seed)")
        }
    }

    @Test("a single-byte encoding decoded by its table gives what iconv gives less NUL, every byte in any order; CP1255 and multi-byte encodings go to iconv",
          arguments: FeedInputDecoder.singleByteEncodings.sorted())
    func singleByteTables(encoding: String) throws {
        let table = try #require(FeedInputDecoder.singleByteTable(for: encoding))
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        // Every byte, then runs of ASCII (read eight at a time, NUL among them) between random bytes.
        var bytes = (0...255).map(UInt8.init)
        for _ in 0..<4_000 {
            bytes += random.next() % 4 == 0 ? Array("plain\0ascii text".utf8.prefix(Int(random.next() % 17))) : [UInt8(truncatingIfNeeded: random.next())]
        }
        let byTable = bytes.withUnsafeBufferPointer { bytes in
            [UInt8](unsafeUninitializedCapacity: 3 * bytes.count + 8) { $1 = FeedInputDecoder.decode(bytes, byTable: table, into: $0.baseAddress!) }
        }
        // NUL is dropped, as the repair drops it; no other byte decodes to a zero byte.
        let byIconv = bytes.withUnsafeBufferPointer { FeedInputDecoder.iconvToUTF8($0, from: encoding) }.filter { $0 != 0 }
        let difference = zip(byTable, byIconv).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(byTable.count == byIconv.count && difference == nil,
                "\(encoding): first difference at output byte \(difference ?? min(byTable.count, byIconv.count)), seed \(seed)")
        for other in ["CP1255", "CP1258", "GB18030", "CP932", "ISO-2022-JP", "UTF-16LE"] {
            #expect(FeedInputDecoder.singleByteTable(for: other) == nil, "\(other)")
        }
    }

    @Test("texts made into strings without a second UTF-8 check hold the feed's characters, in every script, cut at references and line ends")
    func textsReadWithoutSecondCheck() throws {
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        // As written in the feed, and as read.
        let pieces: [(written: String, read: String)] = [
            ("a", "a"), ("word ", "word "), ("é", "é"), ("ωρα", "ωρα"), ("Ёлка", "Ёлка"), ("مرحبا", "مرحبا"), ("東京", "東京"),
            ("🎧", "🎧"), ("\u{10FFFF}", "\u{10FFFF}"), ("&amp;", "&"), ("&#x1F600;", "😀"), ("&#233;", "é"), ("&#x4EAC;", "京"),
        ]
        var items = "", guids: [String] = [], notes: [String] = []
        for number in 0..<40 {
            var written = "x", read = "x"
            for _ in 0..<Int(random.next() % 120) {
                let piece = pieces[Int(random.next() % UInt64(pieces.count))]
                written += piece.written
                read += piece.read
            }
            written += "x"
            read += "x"
            // In the guid as character data; CR LF and lone CR are one line end each.
            let lineEnd = number % 2 == 0 ? "\r\n" : "\r"
            items += "<item><guid isPermaLink=\"false\">\(written)\(lineEnd)\(written)</guid>"
            guids.append(read + "\n" + read)
            // In show notes as CDATA, whose references HTML decodes: long ones are shared between fields.
            items += "<content:encoded><![CDATA[<p>\(written)</p>]]></content:encoded></item>\n"
            notes.append(read)
        }
        let data = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Scripts</title>
            \(items)</channel></rss>

            """.utf8)
        let url = URL(string: "https://feeds.example.org/scripts.xml")!
        #expect(FeedSAXHandler.run(data, feedURL: url, outlining: true).itemOutline != nil, "read by XMLByteReader")
        let feed = try FeedParser().parse(data, url: url)
        #expect(feed.episodes.map(\.guid) == guids, "seed \(seed)")
        #expect(feed.episodes.map(\.description) == notes, "seed \(seed)")
    }

    @Test("declared windows-1252", arguments: ["windows-1252.xml"])
    func declaredWindows1252(_ name: String) throws {
        let feed = try FeedFixture.parse(name)
        #expect(feed.title == Self.windows1252Title)
        #expect(feed.episodes.first?.title == "Episode – one")
    }

    @Test("ISO-8859-1 declared but Windows-1252 bytes used, as browsers read it")
    func latin1WithWindows1252Bytes() throws {
        let feed = try FeedFixture.parse("iso-8859-1-with-cp1252-bytes.xml")
        #expect(feed.title == Self.windows1252Title)
    }

    @Test("undeclared Windows-1252 is repaired byte by byte")
    func undeclaredWindows1252() throws {
        let feed = try FeedFixture.parse("undeclared-windows-1252.xml")
        #expect(feed.title == Self.windows1252Title)
        #expect(feed.episodes.first?.title == "Episode – one")
    }

    @Test("the HTTP charset decides when the document declares none")
    func headerCharset() throws {
        let withHeader = try FeedFixture.parse("iso-8859-2-undeclared.xml", contentType: "application/rss+xml; charset=\"ISO-8859-2\"")
        #expect(withHeader.title == "Škoda škoda")
        // Without the header the bytes are not UTF-8 and are read as Windows-1252.
        let withoutHeader = try FeedFixture.parse("iso-8859-2-undeclared.xml")
        #expect(withoutHeader.title == "©koda ¹koda")
    }

    @Test("the document's declaration wins over the HTTP charset")
    func declarationWinsOverHeader() throws {
        let feed = try FeedFixture.parse("windows-1252.xml", contentType: "text/xml; charset=utf-8")
        #expect(feed.title == Self.windows1252Title)
    }

    @Test("UTF-8 mislabelled as ISO-8859-1 stays UTF-8, next to real Windows-1252 bytes")
    func mislabelledUTF8() throws {
        let feed = try FeedFixture.parse("utf8-declared-latin1.xml")
        #expect(feed.title == "Café naïve")
        #expect(feed.episodes.first?.title == "Episode – one")
    }

    @Test("a header charset is declared in place of a declaration without encoding")
    func headerCharsetWithBareDeclaration() throws {
        var data = Data("<?xml version=\"1.0\"?>\n<rss><channel><title>".utf8)
        data.append(contentsOf: [0xA9, 0x6B, 0x6F, 0x64, 0x61])
        data.append(contentsOf: "</title></channel></rss>".utf8)
        let feed = try FeedParser().parse(data, url: URL("https://example.com/f"), httpContentType: "text/xml; charset=iso-8859-2")
        #expect(feed.title == "Škoda")
    }

    @Test("a stray Latin-1 byte in UTF-8 does not spoil the rest")
    func strayByte() throws {
        let feed = try FeedFixture.parse("utf8-with-stray-latin1-byte.xml")
        #expect(feed.title == "naïve Café")
    }

    @Test("UTF-16 with a byte-order mark")
    func utf16() throws {
        let feed = try FeedFixture.parse("utf16.xml")
        #expect(feed.title == "Café ☕")
        #expect(feed.episodes.first?.title == "Episode – one")
    }

    @Test("an unknown declared encoding is read as UTF-8 instead of failing")
    func unknownDeclaredEncoding() throws {
        let xml = #"<?xml version="1.0" encoding="x-made-up"?><rss><channel><title>Café</title></channel></rss>"#
        let feed = try FeedParser().parse(Data(xml.utf8), url: URL("https://example.com/f"))
        #expect(feed.title == "Café")
    }

    @Test("a label outside the WHATWG Encoding Standard never reaches iconv: the feed is read as UTF-8", arguments: [
        "IBM037", "EBCDIC-US", "UTF-7", "UCS-4", "UTF-32", "CP037//TRANSLIT", "x-user-defined", "hz-gb-2312",
        "iso-2022-kr", "replacement", "utf-16", "UTF-16LE", "IBM1047",
    ])
    func nonWHATWGLabel(_ label: String) throws {
        let xml = "<?xml version=\"1.0\" encoding=\"\(label)\"?><rss><channel><title>Café</title></channel></rss>"
        let declared = try FeedParser().parse(Data(xml.utf8), url: URL("https://example.com/f"))
        #expect(declared.title == "Café")
        let sent = try FeedParser().parse(Data("<rss><channel><title>Café</title></channel></rss>".utf8),
                                          url: URL("https://example.com/f"), httpContentType: "text/xml; charset=\(label)")
        #expect(sent.title == "Café")
    }

    @Test("WHATWG labels reach the encoding they name", arguments: [
        ("koi8-r", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4] as [UInt8], "Привет"),
        ("CSKOI8R", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        ("latin2", [0xA9, 0x6B, 0x6F, 0x64, 0x61], "Škoda"),
        ("cp1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        ("shift_jis", [0x93, 0xFA, 0x96, 0x7B], "日本"),
        ("gb2312", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
        ("ks_c_5601-1987", [0xC7, 0xD1, 0xB1, 0xB9], "한국"),
        ("big5", [0xA4, 0xA4, 0xA4, 0xE5], "中文"),
        ("iso-8859-8-i", [0xF9, 0xEC, 0xE5, 0xED], "שלום"),
    ])
    func whatwgLabel(_ label: String, _ bytes: [UInt8], _ title: String) throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"\(label)\"?><rss><channel><title>".utf8)
        data.append(contentsOf: bytes)
        data.append(contentsOf: "</title></channel></rss>".utf8)
        #expect(try FeedParser().parse(data, url: URL("https://example.com/f")).title == title)
    }

    @Test("a declaration after blank lines still counts")
    func declarationAfterBlankLines() throws {
        var data = Data("\n\n  <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rss><channel><title>Caf".utf8)
        data.append(0xE9)
        data.append(contentsOf: "</title></channel></rss>".utf8)
        let feed = try FeedParser().parse(data, url: URL("https://example.com/f"))
        #expect(feed.title == "Café")
    }

    @Test("NUL bytes from a broken server are dropped")
    func nulBytes() throws {
        var data = Data("<rss><channel><title>A".utf8)
        data.append(0)
        data.append(contentsOf: "B</title></channel></rss>".utf8)
        let feed = try FeedParser().parse(data, url: URL("https://example.com/f"))
        #expect(feed.title == "AB")
    }

    @Test("charset parameter parsing", arguments: [
        ("application/rss+xml; charset=ISO-8859-1", "ISO-8859-1"),
        ("text/xml;charset=\"utf-8\"", "utf-8"),
        ("text/xml; Charset = windows-1252 ; foo=bar", "windows-1252"),
        ("text/xml", nil),
        ("text/xml; charset=", nil),
    ] as [(String, String?)])
    func charsetParameter(_ contentType: String, _ charset: String?) {
        #expect(FeedInputDecoder.charset(fromContentType: contentType) == charset)
    }
}
