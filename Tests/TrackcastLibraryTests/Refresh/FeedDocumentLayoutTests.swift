import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Refresh: a feed that gained items at its top, and perhaps lost its oldest, is parsed in part")
struct FeedDocumentLayoutTests {
    private static let url = URL(string: "https://feeds.example.org/show.xml")!
    private static let digest = FeedDocumentDigest(url: url, contentType: "application/rss+xml", appVersion: "1.0")

    private static func parsed(_ data: Data) throws -> (feed: Feed, outline: FeedItemOutline?) {
        try FeedParser().parseOutlined(data, url: url)
    }

    private static func layout(_ data: Data) throws -> FeedDocumentLayout {
        FeedDocumentLayout(of: data, outline: try parsed(data).outline, digest: digest)
    }

    private static func realistic(episodes: Int, oldest: Int = 1, charset: RealisticFeedWriter.Charset = .utf8) -> Data {
        var writer = RealisticFeedWriter(seed: 7, episodes: episodes, charset: charset)
        writer.itemsKeptAsItGrows = true
        writer.oldestKept = oldest
        return writer.data()
    }

    private static func atom(entries: Int, oldest: Int = 1) -> Data {
        let entries = stride(from: entries, through: oldest, by: -1).map { number in
            """
              <entry><id>urn:e:\(number)</id><title>Entry \(number)</title>\
            <link rel="enclosure" href="media/\(number).mp3" type="audio/mpeg"/></entry>

            """
        }
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://media.example.org/">
              <title>Atom Show</title>
              <id>urn:show</id>
            \(entries.joined())</feed>

            """.utf8)
    }

    enum GrowingFeed: CaseIterable {
        case realisticRSS, greek, latin1, cyrillic, plainRSS, atom

        /// Items `newest` down to `oldest`, as the feed's generator writes them.
        func data(_ newest: Int, oldest: Int = 1) -> Data {
            switch self {
            case .realisticRSS: FeedDocumentLayoutTests.realistic(episodes: newest, oldest: oldest)
            case .greek: FeedDocumentLayoutTests.realistic(episodes: newest, oldest: oldest, charset: .greek)
            case .latin1: FeedDocumentLayoutTests.realistic(episodes: newest, oldest: oldest, charset: .windows1252)
            case .cyrillic: FeedDocumentLayoutTests.realistic(episodes: newest, oldest: oldest, charset: .cyrillic)
            case .plainRSS: PodcastFeedWriter(title: "Plain", episodes: newest).data()
            case .atom: FeedDocumentLayoutTests.atom(entries: newest, oldest: oldest)
            }
        }

        /// Whether its writer can leave out the oldest items.
        var drops: Bool { self != .plainRSS }
    }

    @Test("a feed grown at its top, and one that also lost its three oldest: parsing the head, the new items and the end gives the channel and the new items as parsing it all does",
          arguments: GrowingFeed.allCases, [false, true])
    func grownAtTop(_ feed: GrowingFeed, dropping: Bool) throws {
        guard feed.drops || !dropping else { return }
        let old = feed.data(20), new = feed.data(23, oldest: dropping ? 4 : 1)
        let last = try Self.layout(old)
        #expect(last.items.count == 20 && last.endLength > 0, "cut at each item")

        guard case .itemsAdded(let partial, let added, let kept) = last.change(to: new, digest: Self.digest) else {
            Issue.record("not recognised as items added")
            return
        }
        #expect(kept == (dropping ? 17 : 20))
        #expect(partial.count < new.count / 4)
        let whole = try Self.parsed(new)
        let (part, partOutline) = try Self.parsed(partial)
        #expect(part.episodes == Array(whole.feed.episodes.prefix(3)))
        var channel = whole.feed, partChannel = part
        channel.episodes = []
        partChannel.episodes = []
        #expect(partChannel == channel)

        let grown = last.grown(to: new, added: added, kept: kept, partialOutline: partOutline, digest: Self.digest)
        #expect(grown == FeedDocumentLayout(of: new, outline: whole.outline, digest: Self.digest),
                "the layout kept is the one the whole document has")
        #expect(grown.change(to: new, digest: Self.digest).isSame)
    }

    @Test("the same bytes are the same; the oldest items gone, or a changed field, are items added (none); a changed old item, too many gone, an old item left with its gap, a changed namespace, another address or app version are not")
    func otherDocuments() throws {
        let old = Self.realistic(episodes: 20)
        let last = try Self.layout(old)
        #expect(last.change(to: old, digest: Self.digest).isSame)

        var changedItem = Self.realistic(episodes: 21)
        changedItem[changedItem.count - 2_000] ^= 1
        #expect(last.change(to: changedItem, digest: Self.digest).isOther)

        guard case .itemsAdded(_, let added, let kept) = last.change(to: Self.realistic(episodes: 20, oldest: 3),
                                                                    digest: Self.digest) else {
            Issue.record("two oldest gone: not recognised")
            return
        }
        #expect(added == last.prologueLength..<last.headLength && kept == 18, "the head read again, no new item")
        let tooMany = Self.realistic(episodes: 20, oldest: FeedDocumentLayout.maxDropped + 2)
        #expect(last.change(to: tooMany, digest: Self.digest).isOther)

        // Cut out by hand, the last item leaves the bytes before it behind: not how generators write.
        let text = String(decoding: old, as: UTF8.self)
        let lastItem = try #require(text.range(of: "<item>", options: .backwards))
        let end = try #require(text.range(of: "</item>", options: .backwards))
        let withoutLast = Data((text[..<lastItem.lowerBound] + text[end.upperBound...]).utf8)
        #expect(last.change(to: withoutLast, digest: Self.digest).isOther)

        // A channel's fields may change: the head is read again. Its prologue may not.
        let relabelled = Data(String(decoding: Self.realistic(episodes: 21), as: UTF8.self)
            .replacingOccurrences(of: "<language>", with: "<language>x").utf8)
        guard case .itemsAdded(let partial, _, _) = last.change(to: relabelled, digest: Self.digest) else {
            Issue.record("a new item and a changed field: not recognised")
            return
        }
        #expect(try Self.parsed(partial).feed.language == (try Self.parsed(relabelled).feed.language))
        #expect(try Self.parsed(partial).feed.language?.hasPrefix("x") == true)
        let renamespaced = Data(String(decoding: Self.realistic(episodes: 21), as: UTF8.self)
            .replacingOccurrences(of: "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"", with: "xmlns:dc=\"urn:other\"").utf8)
        #expect(last.change(to: renamespaced, digest: Self.digest).isOther)

        for digest in [FeedDocumentDigest(url: URL(string: "https://feeds.example.org/other/show.xml")!,
                                          contentType: "application/rss+xml", appVersion: "1.0"),
                       FeedDocumentDigest(url: Self.url, contentType: "application/rss+xml", appVersion: "1.1"),
                       FeedDocumentDigest(url: Self.url, contentType: "text/xml; charset=windows-1252", appVersion: "1.0")] {
            #expect(last.change(to: old, digest: digest).isOther)
        }
    }

    @Test("the outline spans the channel and its items exactly")
    func outlineRanges() throws {
        let data = PodcastFeedWriter(title: "Plain", episodes: 3).data()
        let outline = try #require(try Self.parsed(data).outline)
        let text = { (range: Range<Int>) in String(decoding: data[range], as: UTF8.self) }
        #expect(text(outline.channel).hasPrefix("<channel>") && text(outline.channel).hasSuffix("</channel>"))
        #expect(outline.items.count == 3)
        #expect(outline.items.allSatisfy { text($0).hasPrefix("<item>") && text($0).hasSuffix("</item>") })
        #expect(text(outline.items[0]).components(separatedBy: "<item>").count == 2)
        #expect(outline.fieldStarts.allSatisfy { $0 < outline.itemSpan.lowerBound }, "the channel's fields are above its items")
    }

    @Test("only the refresh's parse records the outline: a plain parse's pass keeps none")
    func plainParseRecordsNoOutline() throws {
        let data = Self.realistic(episodes: 3)
        #expect(FeedSAXHandler.run(data, feedURL: Self.url, outlining: true).itemOutline?.items.count == 3)
        #expect(FeedSAXHandler.run(data, feedURL: Self.url, outlining: false).itemOutline == nil)
        #expect(try FeedParser().parse(data, url: Self.url) == Self.parsed(data).feed, "the same feed either way")
    }

    @Test("a channel field among the items keeps the document whole: read from the tail, it would be missed")
    func fieldAmongItems() throws {
        func feed(_ episodes: Int) -> Data {
            Data(String(decoding: PodcastFeedWriter(title: "Plain", episodes: episodes).data(), as: UTF8.self)
                .replacingOccurrences(of: "</channel>", with: "")
                .replacingOccurrences(of: "<item>\n      <title>Episode 1:", with: "<itunes:block>Yes</itunes:block><item>\n      <title>Episode 1:")
                .replacingOccurrences(of: "</rss>", with: "</channel></rss>").utf8)
        }
        let old = feed(5)
        let outline = try #require(try Self.parsed(old).outline)
        #expect(outline.fieldStarts.filter { outline.itemSpan.contains($0) }.count == 1)
        let last = try Self.layout(old)
        #expect(last.items.isEmpty && last.headLength == old.count)
        #expect(last.change(to: old, digest: Self.digest).isSame)
        #expect(last.change(to: feed(6), digest: Self.digest).isOther)
    }

    @Test("added bytes that hold a channel field: the part read has it, and the next layout keeps the document whole")
    func fieldAmongAddedItems() throws {
        let old = PodcastFeedWriter(title: "Plain", episodes: 5).data()
        let last = try Self.layout(old)
        let oldText = String(decoding: old, as: UTF8.self)
        let firstItem = try #require(oldText.range(of: "<item>"))
        let new = Data((oldText[..<firstItem.lowerBound] + "<item><guid>new</guid><title>New</title></item>"
            + "<itunes:author>Someone Else</itunes:author>" + oldText[firstItem.lowerBound...]).utf8)
        guard case .itemsAdded(let partial, let added, let kept) = last.change(to: new, digest: Self.digest) else {
            Issue.record("not recognised as items added")
            return
        }
        let (part, outline) = try Self.parsed(partial)
        let whole = try Self.parsed(new).feed
        #expect(part.author == "Someone Else" && part.author == whole.author)
        #expect(part.episodes.map(\.title) == ["New"])
        let grown = last.grown(to: new, added: added, kept: kept, partialOutline: outline, digest: Self.digest)
        #expect(grown.items.isEmpty && grown.headLength == new.count)
    }

    @Test("a transcoded feed's outline lies at the same tags in its own bytes")
    func transcodedOutline() throws {
        let greek = Self.realistic(episodes: 4, charset: .greek)
        let outline = try #require(try Self.parsed(greek).outline)
        let text = { (range: Range<Int>) in String(decoding: greek[range], as: UTF8.self) }
        #expect(text(outline.channel).hasPrefix("<channel>") && text(outline.channel).hasSuffix("</channel>"))
        #expect(outline.items.count == 4)
        #expect(outline.items.allSatisfy { text($0).hasPrefix("<item>") && text($0).hasSuffix("</item>") })
    }

    @Test("no outline where libxml2 read the feed, where it was UTF-16, or where it has two channels")
    func noOutline() throws {
        let plain = String(decoding: PodcastFeedWriter(title: "Plain", episodes: 3).data(), as: UTF8.self)
        #expect(try Self.parsed(Data(plain.utf8)).outline != nil)

        let doctype = plain.replacingOccurrences(of: "<rss ", with: "<!DOCTYPE rss>\n<rss ")
        #expect(try Self.parsed(Data(doctype.utf8)).outline == nil)

        let utf16 = try #require(plain.replacingOccurrences(of: "UTF-8", with: "UTF-16").data(using: .utf16))
        #expect(try Self.parsed(utf16).feed.episodes.count == 3)
        #expect(try Self.parsed(utf16).outline == nil)

        let twoChannels = plain.replacingOccurrences(of: "</channel>", with: "</channel><channel><title>Second</title></channel>")
        #expect(try Self.parsed(Data(twoChannels.utf8)).outline == nil)
        let layout = try Self.layout(Data(twoChannels.utf8))
        #expect(layout.items.isEmpty)
    }
}

extension FeedDocumentLayoutTests {
    /// What may stand where a feed's first old item was: new items, and what
    /// a generator or an attacker could put among them.
    private static let insertions = [
        "<item><guid>n1</guid><title>New one</title></item>\n",
        "<item><guid>n1</guid></item><item><guid>n2</guid><title>Two</title></item>",
        "<!-- a comment --><item><guid>n3</guid></item>",
        "<item><guid>n4</guid></item><title>Retitled</title>",
        "<itunes:author>Someone</itunes:author><item><guid>n5</guid></item>",
        "</channel><channel><title>Second</title>",
        "<item><guid>n6</guid>",
        "<![CDATA[",
        "<!--",
        "<foo xmlns:itunes=\"urn:other\">",
        "<item xml:base=\"https://other.example/\"><guid>n7</guid><enclosure url=\"a.mp3\"/></item>",
        "&amp;",
        "<item><title>&nbsp;</title></item>",
        "",
    ]

    @Test("whatever stands before the old items, a part read in place of the whole gives the whole's channel and episodes, then and at the next refresh",
          arguments: 0..<insertions.count)
    func partialAgreesWithWhole(_ index: Int) throws {
        for feed in [GrowingFeed.realisticRSS, .greek, .plainRSS, .atom] {
            let old = feed.data(4)
            let last = try Self.layout(old)
            // The oldest two gone as well, where the feed's writer can leave them out.
            let new = Self.inserting(Self.insertions[index], into: feed.data(4, oldest: feed.drops ? 3 : 1),
                                     at: last.headLength)
            guard let grown = try Self.refreshAgrees(from: old, last, to: new, "\(feed), \(index)") else { continue }
            // The next refresh skips the items kept now: they must be nothing but items.
            guard !grown.items.isEmpty else { continue }
            let next = Self.inserting("<item><guid>next</guid><title>Next</title></item>", into: new, at: grown.headLength)
            _ = try Self.refreshAgrees(from: new, grown, to: next, "\(feed), \(index), next")
        }
    }

    private static func inserting(_ text: String, into data: Data, at offset: Int) -> Data {
        Data(data.prefix(offset) + Data(text.utf8) + data.dropFirst(offset))
    }

    /// Checks a refresh from `old` (with layout `last`) to `new`: where it
    /// would parse a part, that part agrees with the whole. Returns the layout
    /// the refresh would keep, `nil` where it would parse the whole.
    private static func refreshAgrees(from old: Data, _ last: FeedDocumentLayout, to new: Data,
                                      _ comment: Comment) throws -> FeedDocumentLayout? {
        guard case .itemsAdded(let partial, let added, let kept) = last.change(to: new, digest: digest) else { return nil }
        // A part that does not read as a feed is parsed whole by the refresher.
        guard let (part, outline) = try? parsed(partial) else { return nil }
        guard let whole = try? parsed(new) else {
            Issue.record("the part read, the whole did not: \(comment)")
            return nil
        }
        var channel = whole.feed, partChannel = part
        channel.episodes = []
        partChannel.episodes = []
        #expect(partChannel == channel, comment)
        #expect(part.episodes + (try parsed(old).feed.episodes.prefix(kept)) == whole.feed.episodes, comment)
        let grown = last.grown(to: new, added: added, kept: kept, partialOutline: outline, digest: digest)
        #expect(grown.change(to: new, digest: digest).isSame, comment)
        return grown
    }
}

private extension FeedDocumentLayout.Change {
    var isSame: Bool { if case .same = self { true } else { false } }
    var isOther: Bool { if case .other = self { true } else { false } }
}

extension FeedDocumentLayoutTests {
    @Test("a layout whose lengths do not fit the document (a damaged row) finds nothing, and a blob past the limits is not read")
    func damagedLayout() throws {
        let old = Self.realistic(episodes: 5)
        let last = try Self.layout(old)
        var items = last.items
        items[2].length += 10_000_000
        items[0].gapLength = 1 << 39
        let damaged = FeedDocumentLayout(headLength: last.headLength, headDigest: last.headDigest,
                                         prologueLength: last.prologueLength, prologueDigest: last.prologueDigest,
                                         items: items, endLength: last.endLength, endDigest: last.endDigest)
        #expect(damaged.change(to: old, digest: Self.digest).isOther)
        #expect(damaged.change(to: Self.realistic(episodes: 7), digest: Self.digest).isOther)

        #expect(FeedDocumentLayout.items(fromBlob: last.itemsBlob) == last.items)
        var huge = Data(count: 32)
        huge.withUnsafeMutableBytes { $0.storeBytes(of: Int64.max.littleEndian, as: Int64.self) }
        #expect(FeedDocumentLayout.items(fromBlob: huge) == nil)
        #expect(FeedDocumentLayout.items(fromBlob: Data(count: 31)) == nil)
    }
}
