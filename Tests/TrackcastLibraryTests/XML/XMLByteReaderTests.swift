import CTrackcastText
import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("XML byte reader: libxml2's events, or libxml2")
struct XMLByteReaderTests {
    /// Both readers over `document`: whether the byte reader read it, after checking that what it
    /// told its handler is what libxml2 tells, and that libxml2 saw nothing wrong.
    @discardableResult
    static func compare(_ document: Data, textElements: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let libxml2 = EventLog(textElements: textElements)
        XMLStreamReader.read(document, into: libxml2)
        let scanned = EventLog(textElements: textElements)
        guard XMLByteReader.read(document, into: scanned) != nil else { return false }
        #expect(libxml2.issues == [], "read a document libxml2 reports issues in", sourceLocation: sourceLocation)
        let expected = libxml2.finished()
        let actual = scanned.finished()
        if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("event \(index): \(actual[index]) but libxml2: \(expected[index])", sourceLocation: sourceLocation)
        } else {
            #expect(actual.count == expected.count, "events", sourceLocation: sourceLocation)
        }
        return true
    }

    static func compare(_ document: String, textElements: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        compare(Data(document.utf8), textElements: textElements, sourceLocation: sourceLocation)
    }

    @Test("a feed with namespaces, a default namespace, redeclared prefixes, xml:base and attributes reads as libxml2 reads it")
    func namespacesAndAttributes() {
        #expect(Self.compare("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- generated -->
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:a='urn:a' xmlns:c="urn:a">
              <channel xml:base="https://example.org/base/">
                <itunes:image href = 'https://example.org/a.jpg?x=1&amp;y=2' />
                <a:x a:one="1" c:two="2" three="&#x41;&#66;&lt;&gt;&quot;&apos;&amp;" /><c:x/>
                <feed xmlns="http://www.w3.org/2005/Atom"><entry><a:x/><link href="e"/></entry>
                  <inner xmlns:a="urn:b"><a:x/></inner><a:x/></feed>
                <title>Text &amp; more &#233;&#x1F600; ]] > <![CDATA[ <b>bold</b> & ]] ]]></title>
                <empty></empty><empty/>
              </channel>
            </rss>
            <!-- after -->

            """))
    }

    @Test("line ends and whitespace in values are normalised as libxml2 normalises them")
    func lineEnds() {
        #expect(Self.compare("<r a=\"one\ttwo\nthree\r\nfour\rfive\" b='&#9;&#10;&#13;'>x\r\ny\rz\r<![CDATA[c\r\nd\re]]>\r</r>"))
        #expect(Self.compare("<r>\r</r>\r\n"))
    }

    @Test("text is handed on only while the handler wants it, and a handler that stops hears nothing after")
    func wantedText() {
        #expect(Self.compare("<r>no<t>yes &amp; <![CDATA[cdata]]></t>no &lt;<t/>no<tt>yes</tt></r>", textElements: ["t"]))
        #expect(Self.compare("<r><a/><stop><b/></stop><c/></r>"))
        #expect(Self.compare("<stop/>"))
    }

    @Test("what only libxml2 reads, or reads with an issue, is left to it", arguments: [
        "<!DOCTYPE r><r/>",
        "<?xml version=\"1.0\"?><r/>",
        " <?xml version=\"1.0\" encoding=\"UTF-8\"?><r/>",
        "<r><?pi x?></r>",
        "<r>&nbsp;</r>",
        "<r>Q&A</r>",
        "<r>&#0;</r>", "<r>&#xD800;</r>", "<r>&#x110000;</r>", "<r>&#12345678901;</r>", "<r>&#;</r>", "<r>&#x;</r>",
        "<r a=\"&nbsp;\"/>", "<r a=\"<\"/>", "<r a=b/>", "<r a/>", "<r a=\"1\"b=\"2\"/>",
        "<r a=\"1\" a=\"2\"/>", "<r xmlns:p=\"urn:p\" xmlns:q=\"urn:p\" p:a=\"1\" q:a=\"2\"/>",
        "<p:r/>", "<r p:a=\"1\"/>", "<xml:r/>", "<xmlns:r/>",
        "<r xmlns:p=\"\"/>", "<r xmlns=\"\"/>", "<r xmlns:p=\"relative\"/>", "<r xmlns:p=\"http://exa mple/\"/>",
        "<r xmlns:p=\"http://host:port/\"/>", "<r xmlns:p=\"urn:a#b#c\"/>", "<r xmlns:p=\"urn:%zz\"/>",
        "<r xmlns:xml=\"http://www.w3.org/XML/1998/namespace\"/>", "<r xmlns:p=\"http://www.w3.org/2000/xmlns/\"/>",
        "<r xmlns:p=\"urn:a\" xmlns:p=\"urn:b\"/>",
        "<r>\u{1}</r>", "<r>\u{FFFE}</r>", "<r a=\"\u{FFFF}\"/>", "<r><!-- a -- b --></r>", "<r><!-- \u{2} --></r>",
        "<r>]]></r>", "<r><![CDATA[x]]></r><![CDATA[y]]>",
        "<r></s>", "<r>", "<r", "<r/><r/>", "<r/>text", "text<r/>", "", "\u{1C}rss/>", "x<r/>",
        "<r:a:b/>", "<1r/>", "<r\u{E9}/>", "<\u{E9}/>",
        "<r><![CDATA[unclosed</r>", "<r><!-- unclosed</r>", "<r><!x></r>",
    ])
    func leftToLibxml2(document: String) {
        #expect(!Self.compare(document), "\(document.debugDescription)")
    }

    @Test("namespace bindings in scope are read up to 256, and left to libxml2 past that (a look-up searches them all)")
    func manyBindings() {
        let declarations = { (count: Int) in (0..<count).map { " xmlns:p\($0)=\"urn:p\($0)\"" }.joined() }
        let nested = { (elements: Int, each: Int) in
            (0..<elements).map { "<e\(declarations(each).replacingOccurrences(of: "xmlns:p", with: "xmlns:q\($0)x"))>" }.joined()
                + "<p0:x xmlns:p0=\"urn:last\"/>" + String(repeating: "</e>", count: elements)
        }
        #expect(Self.compare(nested(4, 60)))
        #expect(!Self.compare(nested(5, 60)))
    }

    @Test("nesting is read up to libxml2's limit, and left to it past that")
    func depth() {
        let deep = { (depth: Int) in String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) }
        #expect(Self.compare(deep(200)))
        #expect(!Self.compare(deep(300)))
    }

    @Test("a CDATA section and a comment of 9 MB read alike (libxml2 refuses them past 10,000,000 bytes)")
    func longSections() {
        // Each in a document of its own: past 10,000,000 bytes libxml2 reports a "huge input lookup" at the end.
        let notes = String(repeating: "word ", count: 9_000_000 / 5)
        #expect(Self.compare("<r><t><![CDATA[\(notes)]]></t></r>", textElements: ["t"]))
        #expect(Self.compare("<r><!--\(notes)--></r>"))
    }

    @Test("the feed fixtures read alike, as FeedInputDecoder hands them on")
    func fixtures() throws {
        var read = 0
        let documents = try Self.fixtureDocuments()
        for document in documents {
            let prepared = FeedInputDecoder.prepared(document, httpContentType: nil)
            if Self.compare(prepared) { read += 1 }
            if Self.compare(prepared, textElements: ["title", "description", "encoded", "summary"]) { read += 1 }
        }
        // Most are plain enough for it; were it to give up on all, nothing would be compared.
        #expect(read > documents.count)
    }

    @Test("realistic feeds, in each charset, are read by the byte reader, alike", arguments: RealisticFeedCorpus.differential.map(\.name))
    func realistic(name: String) throws {
        let member = try #require(RealisticFeedCorpus.differential.first { $0.name == name })
        let prepared = FeedInputDecoder.prepared(member.writer.data(), httpContentType: nil)
        #expect(Self.compare(prepared))
        #expect(Self.compare(prepared, textElements: ["title", "description", "encoded", "summary"]))
    }

    @Test("mutated fixtures: the byte reader reads exactly as libxml2 or leaves them to it")
    func mutations() throws {
        var generator = SplitMix64(seed: 22)
        let pieces: [[UInt8]] = ["<", ">", "&", "&amp;", "&#10;", "&nbsp;", "\r", "\r\n", "]]>", "<![CDATA[", "<!--", "-->", "\"", "'",
                                 "=", " ", ":", "xmlns:x=\"urn:x\" ", "x:", "/", "\u{0}", "\u{1}", "\u{FFFE}", "é", "</a>", "<a>"].map { Array($0.utf8) }
        var compared = 0
        for document in try Self.fixtureDocuments().prefix(40) {
            let prepared = [UInt8](FeedInputDecoder.prepared(document, httpContentType: nil))
            guard !prepared.isEmpty else { continue }
            for _ in 0..<25 {
                var mutated = prepared
                for _ in 0..<(1 + Int(generator.next() % 3)) {
                    let at = Int(generator.next() % UInt64(mutated.count))
                    switch generator.next() % 3 {
                    case 0: mutated.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: at)
                    case 1: mutated.removeSubrange(at..<min(mutated.count, at + 1 + Int(generator.next() % 8)))
                    default: mutated[at] = pieces[Int(generator.next() % UInt64(pieces.count))][0]
                    }
                    if mutated.isEmpty { mutated = prepared }
                }
                if Self.compare(FeedInputDecoder.prepared(Data(mutated), httpContentType: nil), textElements: generator.next() % 2 == 0 ? [] : ["title", "description"]) { compared += 1 }
            }
        }
        #expect(compared > 0)
    }

    @Test("what the xml-readers fuzz target found reads alike (or is left to libxml2)")
    func fuzzFindings() throws {
        let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fuzz-regressions/xml-readers")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let document = FeedInputDecoder.prepared(try Data(contentsOf: folder.appendingPathComponent(name)), httpContentType: nil)
            Self.compare(document)
            Self.compare(document, textElements: ["t"])
        }
    }

    static func fixtureDocuments() throws -> [Data] {
        let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
        var documents: [Data] = []
        for folder in ["feeds", "podcastparser"] {
            let directory = fixtures.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            where !name.hasSuffix(".json") && !name.hasSuffix(".md") && name != "LICENSE" {
                documents.append(try Data(contentsOf: directory.appendingPathComponent(name)))
            }
        }
        return documents
    }

    @Test("the C scans for the end of a run of text, a value, CDATA, a comment or JSON needing no escapes stop where a byte at a time would, from every start, across their 16- and 32-byte steps and the overlapping last block")
    func runEndScans() {
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        typealias Scan = (UnsafePointer<UInt8>?, Int, Int) -> Int
        // Each scan, its own stops and the control characters it keeps.
        // The XML scans all stop at 0xEF too (perhaps U+FFFE or U+FFFF).
        let scans: [(name: String, scan: Scan, stops: [UInt8], kept: [UInt8])] = [
            ("text", tc_xml_text_run_end, Array("<&]\r".utf8) + [0xEF], [0x09, 0x0A]),
            ("value", tc_xml_value_run_end, Array("<&\"'\t\n\r".utf8) + [0xEF], []),
            ("cdata", tc_xml_cdata_run_end, Array("]".utf8) + [0xEF], [0x09, 0x0A, 0x0D]),
            ("comment", tc_xml_comment_run_end, Array("-".utf8) + [0xEF], [0x09, 0x0A, 0x0D]),
            ("json", tc_json_escape_candidate_index, Array("\"\\".utf8) + [0x7F, 0xC2], []),
        ]
        func ends(_ byte: UInt8, _ stops: [UInt8], _ kept: [UInt8]) -> Bool {
            byte < 0x20 ? !kept.contains(byte) : stops.contains(byte)
        }
        // Every byte that matters to some scan, the bytes beside them, and plain letters.
        let special: [UInt8] = Array("<&]\"'-\\\t\n\r".utf8)
            + [0x00, 0x01, 0x1F, 0x20, 0x7F, 0x80, 0xC2, 0xC3, 0xEE, 0xEF, 0xF0, 0xFF]
        for _ in 0..<400 {
            let sparseness = 1 + Int(random.next() % 70)
            let bytes = (0..<Int(random.next() % 110)).map { _ in
                random.next() % UInt64(sparseness) == 0
                    ? special[Int(random.next() % UInt64(special.count))] : UInt8(ascii: "a") + UInt8(random.next() % 26)
            }
            for (name, scan, stops, kept) in scans {
                for start in 0...bytes.count {
                    let expected = (start..<bytes.count).first { ends(bytes[$0], stops, kept) } ?? bytes.count
                    let found = bytes.withUnsafeBufferPointer { scan($0.baseAddress, $0.count, start) }
                    #expect(found == expected, "\(name): \(bytes) from \(start), seed \(seed)")
                }
            }
        }
    }
}
