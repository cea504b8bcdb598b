import Foundation
import TestSupport
import TrackcastLibrary

/// Feeds shaped to make a scanner slow: show notes of 1 MB and 8 MB that are
/// unclosed tags, one tag with a long run of attributes, deep nesting, a
/// flood of entities, or one huge text node. Each is read as a user's
/// refresh reads it (`FeedParser`) and shown as the episode page shows it
/// (`SafeMarkup.fromHTML` of its notes). Two rows per shape: its seconds per
/// MB at 8 MB against an ordinary feed's (realistic notes, the corpus's
/// "long-notes" member; goal within 3×), and its seconds per MB at 8 MB
/// against at 1 MB (goal within 1.1×: linear).
struct HostileShapesBenchmark {
    var runs = 3

    private static let shapes: [(name: String, unit: String)] = [
        ("unclosed tags", "<a href=x "),
        ("a long attribute run", " data-x=\"1\""),
        ("deep nesting", "<b><i>"),
        ("an entity flood", "&amp;&#x41;&rsquo;"),
        ("one huge text node", "word "),
    ]

    func run() throws -> [BenchRow] {
        let ordinary = RealisticFeedCorpus.bench[0].writer.data()
        let ordinaryPerMB = try Self.secondsPerMB(ordinary, runs: runs)
        var rows: [BenchRow] = []
        for (name, unit) in Self.shapes {
            let small = try Self.secondsPerMB(Self.feed(notes: unit, bytes: 1 << 20), runs: runs)
            let large = try Self.secondsPerMB(Self.feed(notes: unit, bytes: 8 << 20), runs: runs)
            rows.append(BenchRow(measured: "notes of \(name), 8 MB: parse and page markup", unit: "ms/MB",
                                 trackcast: large * 1000, peerName: "an ordinary feed (realistic notes)",
                                 peer: ordinaryPerMB * 1000))
            rows.append(BenchRow(measured: "notes of \(name): per MB at 8 MB", unit: "ms/MB",
                                 trackcast: large * 1000, peerName: "the same at 1 MB", peer: small * 1000))
        }
        return rows
    }

    /// A one-episode feed whose notes (`content:encoded`, in CDATA, as real
    /// feeds send HTML) are `unit` repeated to about `bytes`.
    private static func feed(notes unit: String, bytes: Int) -> Data {
        let notes = "<p>" + String(repeating: unit, count: bytes / unit.utf8.count)
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
            <title>Hostile</title><item><title>One</title><guid>one</guid>
            <enclosure url="https://example.org/one.mp3" type="audio/mpeg" length="1"/>
            <content:encoded><![CDATA[\(notes)]]></content:encoded>
            </item></channel></rss>
            """.utf8)
    }

    /// Best of `runs`: the parse, and the markup of every episode's notes.
    private static func secondsPerMB(_ data: Data, runs: Int) throws -> Double {
        let url = URL(string: "https://feeds.example.org/hostile.xml")!
        var best = Double.infinity
        for _ in 0..<runs {
            let elapsed = try ContinuousClock().measure {
                let feed = try FeedParser().parse(data, url: url)
                for episode in feed.episodes { _ = SafeMarkup.fromHTML(episode.contentHTML ?? episode.description ?? "") }
            }
            best = min(best, elapsed / .seconds(1))
        }
        return best / (Double(data.count) / 1_048_576)
    }
}
