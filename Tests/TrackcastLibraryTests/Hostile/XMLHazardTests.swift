import CTrackcastText
import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// What XML itself lets a stranger do to a reader: expand entities without
/// end, name local files, crash Foundation's parser with a processing instruction.
@Suite("Hostile XML")
struct XMLHazardTests {
    static let url = URL(string: "https://example.org/feed.xml")!

    /// The classic: ten entities, each ten of the one before: 10⁹ "lol"s, 3 GB expanded.
    static func billionLaughs(root: String, in element: String) -> Data {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE \(root) [\n  <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += "  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        text += "]>\n\(element.replacingOccurrences(of: "LAUGHS", with: "&lol9;"))\n"
        return Data(text.utf8)
    }

    @Test("the filter's scan finds the first `<!` or `<?` from every start, across its 32- and 16-byte steps, and none in a lone `<` at the end")
    func markupDeclarationScan() {
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        // Mostly plain bytes, some markup characters (and bytes of other scripts) between them.
        let alphabet: [UInt8] = Array("<!?a>".utf8) + [0xC3, 0xA9] + Array(repeating: UInt8(ascii: "x"), count: 9)
        for _ in 0..<300 {
            let bytes = (0..<Int(random.next() % 80)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            for start in 0...bytes.count {
                let expected = (start..<max(start, bytes.count - 1)).first {
                    bytes[$0] == UInt8(ascii: "<") && (bytes[$0 + 1] == UInt8(ascii: "!") || bytes[$0 + 1] == UInt8(ascii: "?"))
                } ?? bytes.count
                let found = bytes.withUnsafeBufferPointer { tc_markup_declaration_index($0.baseAddress, $0.count, start) }
                #expect(found == expected, "\(bytes) from \(start), seed \(seed)")
            }
        }
    }

    /// (Its memory is bounded in the CLI test "a billion-laughs feed parses in 300 MB of address space".)
    @Test("a billion-laughs feed is read without expanding anything")
    func billionLaughsFeed() throws {
        let feed = try FeedParser().parse(Self.billionLaughs(root: "rss", in: """
            <rss version="2.0"><channel><title>Laughs LAUGHS</title>
            <item><title>LAUGHS</title><guid>1</guid></item></channel></rss>
            """), url: Self.url)
        // The references are dropped; what is left of the feed is read.
        #expect(feed.title == "Laughs")
        #expect(feed.episodes.count == 1)
    }

    @Test("a billion-laughs subscription list is read without expanding anything")
    func billionLaughsOPML() throws {
        let list = Self.billionLaughs(root: "opml", in: """
            <opml version="2.0"><body><outline text="LAUGHS" type="rss" xmlUrl="https://example.org/a.xml"/></body></opml>
            """)
        // Its DOCTYPE is dropped, so &lol9; is undeclared and dropped, as in feeds; the rest is read.
        let subscriptions = try OPMLReader().read(list)
        #expect(subscriptions.map(\.feedURL.absoluteString) == ["https://example.org/a.xml"])
        #expect(subscriptions.first?.title == nil)
    }

    @Test("external entities and DTDs are not fetched, not even from a server that is there")
    func externalEntitiesNotFetched() throws {
        let server = try TestHTTPServer()
        server.route("/evil.dtd", .serve(Data("<!ENTITY x \"FETCHED\">".utf8), contentType: "application/xml-dtd"))
        server.route("/secret", .serve(Data("FETCHED".utf8), contentType: "text/plain"))
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss SYSTEM "\(server.url("/evil.dtd"))" [
              <!ENTITY secret SYSTEM "\(server.url("/secret"))">
              <!ENTITY % remote SYSTEM "\(server.url("/evil.dtd"))"> %remote;
              <!ENTITY local SYSTEM "file:///etc/hostname">
            ]>
            <rss version="2.0"><channel><title>T&secret;&x;&local;</title></channel></rss>
            """
        let feed = try FeedParser().parse(Data(document.utf8), url: Self.url)
        #expect(feed.title == "T")
        #expect(server.log.isEmpty)
    }

    @Test("a processing instruction without data is skipped (Foundation's parser crashed on it)")
    func processingInstructionWithoutData() throws {
        let feed = try FeedParser().parse(Data("""
            <?xml version="1.0"?><?xml-stylesheet?>
            <rss version="2.0"><channel><?a?><title>T</title><!-- <?b?> --><description><![CDATA[<?c?>]]></description></channel></rss>
            """.utf8), url: Self.url)
        #expect(feed.title == "T")
        #expect(feed.description == "<?c?>")
        #expect(try OPMLReader().read(Data("<opml><?a?><body><outline xmlUrl=\"https://e.org/f\"/></body></opml>".utf8)).count == 1)
    }

    @Test("line numbers in errors are the document's after a DOCTYPE is removed")
    func lineNumbersKept() {
        let document = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\n<!ENTITY a \"b\">\n]>\n<rss version=\"2.0\"><channel>\n<title>T</tit>\n</channel></rss>"
        #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(document.utf8), url: Self.url) }
        do {
            _ = try FeedParser().parse(Data(document.utf8), url: Self.url)
        } catch {
            guard case .malformedXML(let line, _, _) = error else { Issue.record("\(error)"); return }
            #expect(line == 6)
        }
    }
}
