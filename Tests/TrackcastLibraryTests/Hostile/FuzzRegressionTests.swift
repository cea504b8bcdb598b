import Foundation
import Testing
@testable import TrackcastLibrary

/// Every input a fuzzer crashed (`meson-helpers/fuzz`), kept in
/// Fixtures/fuzz-regressions/TARGET/, goes through both XML readers. A
/// regression traps the test process, as it trapped the fuzzer.
@Suite("Fuzz findings stay fixed")
struct FuzzRegressionTests {
    static var inputs: [URL] {
        let root = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fuzz-regressions")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        return files.sorted { $0.path < $1.path }
    }

    @Test("there are findings to replay")
    func findingsPresent() {
        #expect(Self.inputs.count >= 3)
    }

    @Test("each finding is read as a feed and as OPML without a crash", arguments: inputs)
    func replay(_ input: URL) throws {
        let data = try Data(contentsOf: input)
        // Which error (or none) does not matter here; staying alive does.
        _ = try? FeedParser().parse(data, url: URL(string: "https://example.org/feed.xml")!)
        _ = try? FeedParser().parse(data, url: URL(string: "https://example.org/feed.xml")!,
                                    httpContentType: "text/xml; charset=windows-1250")
        _ = try? OPMLReader().read(data)
    }

    @Test("a comment with a byte the declared charset cannot hold does not stop a feed")
    func commentInForeignCharset() throws {
        // "ISO-8~859-1" is no charset name, but iconv takes it; libxml2 then passed the comment's
        // byte through undecoded and Foundation trapped on it.
        let feed = Data("<?xml version=\"1.0\" encoding=\"ISO-8~859-1\"?>\n<!-- caf\u{E9} -->\n".utf8)
            .replacingCharacter("\u{E9}", with: 0xF2)
            + Data("<rss version=\"2.0\"><channel><title>Cafe</title></channel></rss>".utf8)
        let parsed = try FeedParser().parse(feed, url: URL(string: "https://example.org/feed.xml")!)
        #expect(parsed.title == "Cafe")
    }

    @Test("an element name with invalid UTF-8 is an error, not a crash")
    func elementNameInvalidUTF8() {
        let data = Data([0x3C, 0xFF, 0x65, 0x00, 0x00])
        #expect(throws: OPMLError.self) { try OPMLReader().read(data) }
        #expect(throws: FeedParseError.self) { try FeedParser().parse(data, url: URL(string: "https://example.org/f")!) }
    }

    @Test("UTF-16 without a byte-order mark, and UTF-32, are transcoded", arguments: [
        String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian,
    ])
    func unicodeWithoutBOM(_ encoding: String.Encoding) throws {
        let text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Grüße ✓</title></channel></rss>"
        let feed = try FeedParser().parse(try #require(text.data(using: encoding)),
                                          url: URL(string: "https://example.org/feed.xml")!)
        #expect(feed.title == "Grüße ✓")
    }
}

private extension Data {
    /// The UTF-8 bytes of `character` replaced by one raw byte.
    func replacingCharacter(_ character: Character, with byte: UInt8) -> Data {
        let needle = Data(String(character).utf8)
        var copy = self
        while let range = copy.range(of: needle) { copy.replaceSubrange(range, with: [byte]) }
        return copy
    }
}
