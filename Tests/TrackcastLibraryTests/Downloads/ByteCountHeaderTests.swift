import Foundation
import Testing
@testable import TrackcastLibrary

/// Content-Length and Content-Range as a server may send them: a download
/// seeks, truncates and sizes its file by them, and a feed reserves memory
/// by the length, so anything but what RFC 9110 allows is no length at all.
@Suite("Content-Length and Content-Range from strangers")
struct ByteCountHeaderTests {
    private static let url = URL(string: "https://example.org/a.mp3")!

    @Test("Content-Length is digits only", arguments: [
        ("1234", 1234), (" 12 ", 12), ("0", 0), ("-5", nil), ("+5", nil), ("0x10", nil), ("1e3", nil),
        ("99999999999999999999", nil), ("", nil), ("1,2", nil), ("٣", nil),
    ] as [(String, Int64?)])
    func contentLength(value: String, expected: Int64?) {
        #expect(HTTPResponseHead(status: 200, url: Self.url, headers: ["content-length": value]).contentLength == expected)
    }

    @Test("Content-Range is bytes first-last/total, first ≤ last < total, or an unknown total", arguments: [
        ("bytes 0-99/100", 0, 100), ("bytes 5-9/*", 5, nil), ("BYTES 0-9/10", 0, 10),
    ] as [(String, Int64, Int64?)])
    func contentRange(value: String, start: Int64, total: Int64?) throws {
        let parsed = try #require(MediaFileWriter.parseContentRange(value))
        #expect(parsed.start == start && parsed.total == total)
    }

    @Test("anything else is no range", arguments: [
        "bytes 100-50/200", "bytes 0-99/50", "bytes 5-9/-3", "bytes -5-9/20", "bytes 5/20", "bytes 5-/20",
        "items 0-1/2", "bytes 0-99/100/7", "bytes +1-9/10", "bytes 0-9/99999999999999999999", "bytes */10", "",
    ])
    func notARange(value: String) {
        #expect(MediaFileWriter.parseContentRange(value) == nil)
    }
}
