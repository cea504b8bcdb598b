import Foundation
import TestSupport
import Testing
@testable import TrackcastLibrary

@Suite("feed parse errors")
struct FeedParseErrorTests {
    private static let url = URL("https://example.com/feed")

    private func parse(_ data: Data) throws(FeedParseError) -> Feed {
        try FeedParser().parse(data, url: Self.url)
    }

    @Test("empty data and whitespace are empty")
    func empty() {
        #expect(throws: FeedParseError.empty) { try parse(Data()) }
        #expect(throws: FeedParseError.empty) { try parse(Data(" \n\t\r\n".utf8)) }
    }

    @Test("text is not XML")
    func notXML() throws {
        #expect(throws: FeedParseError.notXML) { try parse(try FeedFixture.data("not-xml.txt")) }
        #expect(throws: FeedParseError.notXML) { try parse(Data(#"{"title": "JSON feed"}"#.utf8)) }
    }

    @Test("a web page is not a feed, with a message saying so")
    func webPage() throws {
        let error = #expect(throws: FeedParseError.self) { try parse(try FeedFixture.data("web-page.html")) }
        #expect(error == .notAFeed(rootElement: "html"))
        #expect(error?.errorDescription == "This is a web page, not a podcast feed. Look on the page for its RSS feed link.")
    }

    @Test("other XML is not a feed")
    func otherXML() throws {
        let error = #expect(throws: FeedParseError.self) { try parse(try FeedFixture.data("not-a-feed.xml")) }
        #expect(error == .notAFeed(rootElement: "opml"))
        #expect(error?.errorDescription == "This is XML but not a podcast feed: its top element is <opml>, not <rss> or <feed>.")
    }

    @Test("a truncated download is malformed, with the line where it ends")
    func truncated() throws {
        let error = #expect(throws: FeedParseError.self) { try parse(try FeedFixture.data("truncated.xml")) }
        guard case .malformedXML(let line, _, let reason) = error else {
            Issue.record("expected malformedXML, got \(String(describing: error))")
            return
        }
        #expect(line == 10)
        #expect(reason == "the feed ends before it is complete (was the download cut short?)")
        #expect(error?.errorDescription?.hasPrefix("The feed is broken at line 10, column ") == true)
    }

    @Test("mismatched tags are malformed at their line")
    func mismatchedTags() throws {
        let error = #expect(throws: FeedParseError.self) { try parse(try FeedFixture.data("mismatched-tags.xml")) }
        guard case .malformedXML(let line, _, let reason) = error else {
            Issue.record("expected malformedXML, got \(String(describing: error))")
            return
        }
        #expect(line == 6)
        #expect(reason == "a closing tag does not match the tag it should close")
    }

    @Test("junk after the closing tag is ignored")
    func junkAfterRoot() throws {
        let feed = try parse(Data("<rss><channel><title>T</title></channel></rss>\n<!-- cache -->garbage<p>".utf8))
        #expect(feed.title == "T")
    }

    @Test("external entities are never loaded")
    func externalEntity() throws {
        let feed = try parse(try FeedFixture.data("external-entity.xml"))
        #expect(feed.title?.contains("root") != true)
        #expect(feed.title?.hasPrefix("Innocent") == true)
        #expect(feed.episodes.count == 1)
    }

    /// Every prefix of a real feed, and byte-flipped copies of it: the parser
    /// returns a feed or a `FeedParseError` (typed throws), and never crashes.
    @Test("never crashes on cut or corrupted input")
    func neverCrashes() throws {
        let feed = try FeedFixture.data("podcasting20.xml")
        var outcomes = (parsed: 0, failed: 0)
        for length in stride(from: 0, through: feed.count, by: 7) {
            do {
                _ = try parse(feed.prefix(length))
                outcomes.parsed += 1
            } catch {
                outcomes.failed += 1
            }
        }
        var generator = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            var corrupted = feed
            for _ in 0..<8 {
                let index = Int(generator.next() % UInt64(corrupted.count))
                corrupted[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                _ = try parse(corrupted)
                outcomes.parsed += 1
            } catch {
                outcomes.failed += 1
            }
        }
        #expect(outcomes.failed > 0 && outcomes.parsed > 0)
        for _ in 0..<50 {
            let noise = Data((0..<512).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            #expect(throws: FeedParseError.self) { try parse(noise) }
        }
    }

    @Test("messages for the person who pasted the URL")
    func messages() {
        #expect(FeedParseError.empty.errorDescription == "The feed is empty: the server sent no data.")
        #expect(FeedParseError.notXML.errorDescription == "This is not a podcast feed: the data is not XML.")
        #expect(FeedParseError.malformedXML(line: 3, column: 14, reason: "a tag is not closed properly").errorDescription
                == "The feed is broken at line 3, column 14: a tag is not closed properly.")
    }
}
