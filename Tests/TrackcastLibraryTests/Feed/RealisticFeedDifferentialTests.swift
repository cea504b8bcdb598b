import Foundation
import Testing
import TestSupport
import TrackcastLibrary

/// The parser's answers on realistic feeds (`RealisticFeedCorpus.differential`)
/// as they were before the parser was made faster (issue 22): the whole `Feed`
/// as `JSONEncoder` writes it, and what `trackcast feed parse --json` prints.
@Suite("realistic feeds parse as they did before the speed-up")
struct RealisticFeedDifferentialTests {
    static let members = RealisticFeedCorpus.differential.map(\.name)

    @Test("the same feed, field for field, and the same CLI JSON", arguments: members)
    func sameAnswers(name: String) throws {
        let member = try #require(RealisticFeedCorpus.differential.first { $0.name == name })
        let feed = try FeedParser().parse(member.writer.data(), url: URL(string: "https://feeds.example.org/\(name).xml")!)
        #expect(feed.episodes.count == member.writer.episodes)

        let expectedFeed = try Self.fixture("\(name).feed.json")
        let actualFeed = String(decoding: try Self.encoder.encode(feed), as: UTF8.self) + "\n"
        #expect(Self.firstDifference(actualFeed, expectedFeed) == nil)

        let expectedJSON = try Self.fixture("\(name).cli.json")
        #expect(Self.firstDifference(FeedJSON(feed).text, expectedJSON) == nil)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/realistic/" + name), encoding: .utf8)
    }

    /// The first line that differs, with its number, so a failure shows where.
    static func firstDifference(_ actual: String, _ expected: String) -> String? {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, pair) in zip(actualLines, expectedLines).enumerated() where pair.0 != pair.1 {
            return "line \(number + 1): got \(pair.0.prefix(300)) expected \(pair.1.prefix(300))"
        }
        return actualLines.count == expectedLines.count ? nil : "\(actualLines.count) lines, expected \(expectedLines.count)"
    }
}
