import Foundation
import Testing
import TrackcastLibrary

@Suite("Feed addresses as people paste them")
struct FeedAddressTests {
    @Test("podcast link schemes, bare hosts, paths and files", arguments: [
        ("https://example.org/feed.xml", "https://example.org/feed.xml"),
        ("  http://example.org/feed.xml\n", "http://example.org/feed.xml"),
        ("feed://example.org/feed.xml", "http://example.org/feed.xml"),
        ("feed:https://example.org/feed.xml", "https://example.org/feed.xml"),
        ("itpc://example.org/rss", "http://example.org/rss"),
        ("podcast://example.org/rss", "http://example.org/rss"),
        ("itms-podcast://example.org/rss", "http://example.org/rss"),
        ("example.org/feed.xml", "https://example.org/feed.xml"),
        ("example.org:8080/feed.xml", "https://example.org:8080/feed.xml"),
        ("file:///srv/feeds/a.xml", "file:///srv/feeds/a.xml"),
        ("/srv/feeds/a.xml", "file:///srv/feeds/a.xml"),
        ("feeds/a.xml", "file:///home/me/feeds/a.xml"),
    ])
    func addresses(_ text: String, _ expected: String) {
        #expect(FeedAddress.url(from: text, currentDirectory: "/home/me")?.absoluteString == expected)
    }

    @Test("what cannot be a feed address", arguments: ["", "   ", "mailto:someone@example.org", "ftp://example.org/x", "https://",
                                                      "file:https://example.org/feed.xml", "file:feeds/a.xml"])
    func refused(_ text: String) {
        #expect(FeedAddress.url(from: text, currentDirectory: "/home/me") == nil)
    }
}
