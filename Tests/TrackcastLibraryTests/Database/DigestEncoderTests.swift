import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Content hashes: what an episode encodes, hashed without JSON")
struct DigestEncoderTests {
    private struct Tree: Encodable {
        let children: [Tree]
        let name: String?
    }

    private struct Pair: Encodable {
        let first: String
        let second: String
    }

    /// Writes its two lists through nested containers, as a hand-written `encode(to:)` may.
    private struct Nested: Encodable {
        let outer: [String]
        let inner: [String]
        enum Keys: CodingKey { case outer, inner }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var outerList = container.nestedUnkeyedContainer(forKey: .outer)
            for value in outer { try outerList.encode(value) }
            var innerList = outerList.nestedUnkeyedContainer()
            for value in inner { try innerList.encode(value) }
        }
    }

    @Test("the same value hashes the same; trees and strings that would print alike hash apart")
    func structure() {
        let leaf = { (name: String) in Tree(children: [], name: name) }
        let a = Tree(children: [Tree(children: [leaf("a")], name: nil), Tree(children: [leaf("b")], name: nil)], name: nil)
        let b = Tree(children: [Tree(children: [leaf("a"), Tree(children: [leaf("b")], name: nil)], name: nil)], name: nil)
        #expect(DigestEncoder.digest(of: a) == DigestEncoder.digest(of: a))
        #expect(DigestEncoder.digest(of: a) != DigestEncoder.digest(of: b))
        #expect(DigestEncoder.digest(of: Pair(first: "ab", second: "c")) != DigestEncoder.digest(of: Pair(first: "a", second: "bc")))
        #expect(DigestEncoder.digest(of: leaf("")) != DigestEncoder.digest(of: Tree(children: [], name: nil)),
                "an empty string is not a missing one")
        #expect(DigestEncoder.digest(of: Nested(outer: ["a", "b"], inner: ["c"]))
                != DigestEncoder.digest(of: Nested(outer: ["a"], inner: ["b", "c"])))
        #expect(DigestEncoder.digest(of: [Double.nan]) == DigestEncoder.digest(of: [-Double.nan]))
        #expect(DigestEncoder.digest(of: [0.0]) != DigestEncoder.digest(of: [-0.0]))
    }

    @Test("an episode's hash changes with any of its fields, down to a person's role and an enclosure's length")
    func episodeFields() throws {
        let feed = try FeedParser().parse(RealisticFeedWriter(seed: 5, episodes: 1).data(),
                                          url: URL(string: "https://example.org/feed.xml")!)
        let episode = try #require(feed.episodes.first)
        #expect(!episode.persons.isEmpty && !episode.enclosures.isEmpty)
        let original = EpisodeContentHash.of(episode)
        #expect(EpisodeContentHash.of(episode) == original)

        var changes: [(String, (inout FeedEpisode) -> Void)] = [
            ("title", { $0.title = ($0.title ?? "") + "!" }),
            ("notes", { $0.description = ($0.description ?? "") + " " }),
            ("published", { $0.published = $0.published?.addingTimeInterval(1) }),
            ("no date", { $0.published = nil }),
            ("duration", { $0.duration = ($0.duration ?? 0) + 0.5 }),
            ("explicit", { $0.isExplicit = !($0.isExplicit ?? false) }),
            ("blocked", { $0.isBlocked.toggle() }),
            ("person role", { $0.persons[0].role += "x" }),
            ("persons order", { $0.persons.reverse() }),
            ("enclosure length", { $0.enclosures[0].length = ($0.enclosures[0].length ?? 0) + 1 }),
            ("image", { $0.imageURL = URL(string: "https://example.org/other.jpg") }),
        ]
        if episode.persons.count < 2 { changes.removeAll { $0.0 == "persons order" } }
        var seen: Set<Int64> = [original]
        for (name, change) in changes {
            var changed = episode
            change(&changed)
            #expect(seen.insert(EpisodeContentHash.of(changed)).inserted, "\(name)")
        }
    }
}
