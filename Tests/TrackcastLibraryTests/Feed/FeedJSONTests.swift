import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("feed JSON for the CLI")
struct FeedJSONTests {
    private func json(_ feed: Feed) throws -> [String: Any] {
        let data = FeedJSON(feed).data()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("every key is present, null when unknown")
    func shape() throws {
        let feed = Feed(episodes: [FeedEpisode(title: "Only a title")])
        let object = try json(feed)
        #expect(Set(object.keys) == ["title", "link", "description", "author", "language", "image",
                                     "new_feed_url", "locked", "funding", "episodes"])
        #expect(object["title"] is NSNull)
        #expect(object["locked"] is NSNull)
        #expect(object["funding"] as? [Any] != nil)
        let episode = try #require((object["episodes"] as? [[String: Any]])?.first)
        #expect(Set(episode.keys) == ["guid", "title", "published", "duration", "link", "description", "image", "season",
                                      "number", "type", "explicit", "enclosures", "chapters", "chapters_url",
                                      "transcripts", "persons"])
        #expect(episode["title"] as? String == "Only a title")
        #expect(episode["guid"] is NSNull)
        #expect(episode["published"] is NSNull)
        #expect((episode["enclosures"] as? [Any])?.isEmpty == true)
    }

    @Test("values: Unix seconds, seconds, nested objects")
    func values() throws {
        let feed = try FeedFixture.parse("podcasting20.xml")
        let text = FeedJSON(feed).text
        #expect(text.contains("\"https://example.com/osh\""), "slashes are not escaped")
        let object = try json(feed)
        #expect(object["title"] as? String == "Open Source Hour")
        #expect(object["image"] as? String == "https://example.com/osh/cover-3000.jpg")
        #expect(object["locked"] as? Bool == true)
        #expect((object["funding"] as? [[String: Any]])?.first?["title"] as? String == "Support the show!")

        let episode = try #require((object["episodes"] as? [[String: Any]])?.first)
        #expect(episode["published"] as? Int == 1_617_611_400)
        #expect(episode["duration"] as? Double == 3723.5)
        #expect(episode["season"] as? Int == 2)
        #expect(episode["number"] as? Int == 12)
        #expect(episode["type"] as? String == "full")
        #expect(episode["chapters_url"] as? String == "https://example.com/osh/12/chapters.json")
        let enclosure = try #require((episode["enclosures"] as? [[String: Any]])?.first)
        #expect(enclosure["url"] as? String == "https://cdn.example.com/osh/12.mp3")
        #expect(enclosure["mime_type"] as? String == "audio/mpeg")
        #expect(enclosure["length"] as? Int == 48_000_000)
        let transcripts = try #require(episode["transcripts"] as? [[String: Any]])
        #expect(transcripts.count == 3)
        #expect(transcripts[1]["language"] is NSNull)
        let persons = try #require(episode["persons"] as? [[String: Any]])
        #expect(persons.map { $0["role"] as? String } == ["host", "guest", "writer"])
        #expect(persons[1]["image"] is NSNull)
    }

    @Test("keys in a fixed order, title first and episodes last; empty lists compact")
    func keyOrder() throws {
        let text = FeedJSON(try FeedFixture.parse("podcasting20.xml")).text
        let feedKeys = ["title", "link", "description", "author", "language", "image", "new_feed_url", "locked",
                        "funding", "episodes"]
        let positions = feedKeys.map { text.range(of: "\n  \"\($0)\": ")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        let episodeKeys = ["guid", "title", "published", "duration", "link", "description", "image", "season", "number",
                           "type", "explicit", "enclosures", "chapters", "chapters_url", "transcripts", "persons"]
        let episodes = try #require(text.range(of: "\"episodes\": [").map { text[$0.upperBound...] })
        let episodePositions = episodeKeys.map { episodes.range(of: "\n      \"\($0)\": ")?.lowerBound }
        #expect(episodePositions.allSatisfy { $0 != nil })
        #expect(episodePositions.compactMap { $0 } == episodePositions.compactMap { $0 }.sorted())
        #expect(text.contains("\"chapters\": [],"))
        #expect(text.hasPrefix("{\n  \"title\": \"Open Source Hour\",\n") && text.hasSuffix("}\n"))
    }

    @Test("strings are escaped so any title survives")
    func escaping() throws {
        let title = "Quote \" backslash \\ slash / newline \n tab \t bell \u{07} nul \u{0} é 🎧"
        let object = try json(Feed(title: title, episodes: [FeedEpisode(title: title, duration: 0.1)]))
        #expect(object["title"] as? String == title)
        let episode = try #require((object["episodes"] as? [[String: Any]])?.first)
        #expect(episode["title"] as? String == title)
        #expect(episode["duration"] as? Double == 0.1)
    }

    @Test("a character to escape is found wherever it falls in the eight bytes read at a time")
    func escapingAtEveryOffset() throws {
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{7F}", " ", "é", "🎧"] {
            for offset in 0..<17 {
                let title = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 16 - offset)
                let object = try json(Feed(title: title))
                #expect(object["title"] as? String == title, "\(special.unicodeScalars.first!.value) after \(offset) bytes")
            }
        }
    }

    @Test("two characters to escape in the same eight bytes are both found, and the bytes after one (a borrow may flag them) stay as written")
    func escapingTwoInOneWord() throws {
        let specials = ["\"", "\n", "\u{01}", "\u{7F}", "\u{85}", "\u{A0}"]
        for first in specials {
            for second in specials + [" ", "!", "\u{1F}"] {
                for offset in 0..<9 {
                    for gap in 0..<8 {
                        let title = String(repeating: "a", count: offset) + first + String(repeating: " ", count: gap) + second + "bbbbbbbb"
                        let document = FeedJSON(Feed(title: title)).document.utf8
                        let context = "\(first.debugDescription) then \(second.debugDescription), \(offset) and \(gap) bytes before"
                        let raw = String(decoding: document, as: UTF8.self).unicodeScalars.filter {
                            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                        }
                        #expect(raw.isEmpty, "\(context)")
                        let object = try #require(try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
                        #expect(object["title"] as? String == title, "\(context)")
                    }
                }
            }
        }
    }

    @Test("no control a terminal acts on is written raw, wherever it falls, and the text reads back the same")
    func terminalSafe() throws {
        // Each C0 control, DEL and each C1 control (the feed parser drops most before, but a
        // library an older Trackcast filled may hold them), and the bytes they share lead bytes with.
        let controls = (0x00..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\u{7F}"]
            + (0x80...0x9F).map { String(Unicode.Scalar(UInt32($0))!) }
        for special in controls + ["\u{A0}", "\u{BF}", "é", "Ā"] {
            for offset in 0..<17 {
                let title = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 16 - offset)
                let document = FeedJSON(Feed(title: title)).document.utf8
                // Line breaks are the layout's own.
                let raw = String(decoding: document, as: UTF8.self).unicodeScalars.filter {
                    ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                }
                #expect(raw.isEmpty, "\(special.unicodeScalars.first!.value) after \(offset) bytes")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
                #expect(object["title"] as? String == title, "\(special.unicodeScalars.first!.value) after \(offset) bytes")
            }
        }
        // Escaped as `TerminalText` escapes what else the CLI prints.
        let document = FeedJSON(Feed(title: "\u{7F}\u{9B}\u{85}")).document.utf8
        #expect(String(decoding: document, as: UTF8.self).contains(#""title": "\u007F\u009B\u0085""#))
    }

    @Test("written in pieces, the JSON is the whole document byte for byte, a string longer than a piece included, and no piece is longer than asked but for such a string")
    func writtenInPieces() throws {
        var feed = try FeedFixture.parse("podcasting20.xml")
        let longNotes = String(repeating: "Notes \"quoted\" and\nbroken, é ü 歴史. ", count: 40)
        feed.episodes.append(FeedEpisode(title: "Long notes", description: longNotes))
        // Several times longer than that string may make a piece.
        feed.episodes = Array(repeatElement(feed.episodes, count: 30).joined())
        let whole = FeedJSON(feed).document.utf8
        for pieceSize in [64, 100, 1_000, 4_096, 1 << 20] {
            var pieces: [[UInt8]] = []
            FeedJSON(feed).document.write(inPiecesOf: pieceSize) { pieces.append(Array($0)) }
            let isWhole = pieces.joined().elementsEqual(whole)
            #expect(isWhole, "pieces of \(pieceSize) bytes")
            let longestAllowed = max(pieceSize, 6 * longNotes.utf8.count + 2)
            let sizes = pieces.map(\.count)
            #expect(sizes.min() ?? 0 > 0, "pieces of \(pieceSize) bytes")
            #expect(sizes.max() ?? 0 <= longestAllowed, "pieces of \(pieceSize) bytes")
        }
    }

    @Test("integers are written digit by digit as Swift prints them, signs and extremes included")
    func integers() {
        let values: [Int64] = [0, 7, -7, 10, 99, 100, -1_000_000, 1_733_000_000, .max, .min, .min + 1]
        for value in values {
            var json = JSONWriter(reservingCapacity: 0)
            json.integer(value)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(value))
        }
        for value in [-0.0, 3.0, -42.0, 1e14] {
            var json = JSONWriter(reservingCapacity: 0)
            json.number(value)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(Int64(value)))
        }
    }

    @Test("chapters carry start seconds")
    func chapters() throws {
        let feed = try FeedFixture.parse("relative-urls.xml")
        let object = try json(feed)
        let episode = try #require((object["episodes"] as? [[String: Any]])?.first)
        let chapters = try #require(episode["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["start"] as? Double } == [0, 90])
        #expect(chapters[0]["url"] as? String == "https://example.com/podcast/notes/1#intro")
        #expect(chapters[1]["image"] is NSNull)
    }
}

@Suite("feed model")
struct FeedModelTests {
    @Test("Codable round trip, for the store and caches")
    func codableRoundTrip() throws {
        let feed = try FeedFixture.parse("podcasting20.xml")
        let data = try JSONEncoder().encode(feed)
        #expect(try JSONDecoder().decode(Feed.self, from: data) == feed)
    }

    @Test("parsing from many threads at once gives the same result")
    func concurrentParsing() async throws {
        let data = try FeedFixture.data("podcasting20.xml")
        let url = FeedFixture.url("podcasting20.xml")
        let reference = try FeedParser().parse(data, url: url)
        let results = try await withThrowingTaskGroup(of: Feed.self) { group in
            for _ in 0..<16 {
                group.addTask { try FeedParser().parse(data, url: url) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == reference })
    }

    @Test("an identity key survives a date no Int64 holds")
    func extremeDate() {
        let identity = FeedEpisodeIdentity.titleAndDate(title: "T", published: Date(timeIntervalSince1970: .infinity))
        #expect(identity.key == "title:-:T")
    }
}
