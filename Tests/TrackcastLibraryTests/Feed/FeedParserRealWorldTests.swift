import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("feed parser on real-world-shaped feeds")
struct FeedParserRealWorldTests {
    @Test("Podcasting 2.0: every tag, under odd prefixes")
    func podcasting20() throws {
        let feed = try FeedFixture.parse("podcasting20.xml")
        #expect(feed.format == .rss)
        #expect(feed.title == "Open Source Hour")
        #expect(feed.link == URL("https://example.com/osh"))
        #expect(feed.language == "en-GB")
        #expect(feed.author == "Ada Example")
        #expect(feed.imageURL == URL("https://example.com/osh/cover-3000.jpg"))
        #expect(feed.isExplicit == false)
        #expect(feed.showType == .serial)
        #expect(feed.isBlocked == false)
        #expect(feed.isComplete == true)
        #expect(feed.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(feed.isLocked == true)
        #expect(feed.funding == [
            FeedFunding(url: URL("https://example.com/donate"), title: "Support the show!"),
            FeedFunding(url: URL("https://patreon.example.com/osh"), title: "Patreon"),
        ])
        #expect(feed.persons == [FeedPerson(name: "Ada Example", role: "host", group: "cast",
                                            href: URL("https://example.com/ada"), imageURL: URL("https://example.com/ada.jpg"))])
        #expect(feed.license == FeedLicense(name: "cc-by-4.0", url: URL("https://creativecommons.org/licenses/by/4.0/")))
        #expect(feed.location == FeedLocation(name: "London", geo: "geo:51.5072,-0.1276", osm: "R65606"))
        #expect(feed.trailers == [FeedTrailer(
            title: "Season 2 is coming", url: URL("https://example.com/osh/trailer.mp3"),
            published: Date(timeIntervalSince1970: 1_617_282_000), mimeType: "audio/mpeg", length: 12_345_678, season: 2)])
        try #require(feed.episodes.count == 2)

        let episode = feed.episodes[0]
        #expect(episode.guid == "osh-12")
        #expect(episode.identity == .guid("osh-12"))
        #expect(episode.published == Date(timeIntervalSince1970: 1_617_611_400))
        #expect(episode.duration == 3723.5)
        #expect(episode.episodeType == .full)
        #expect(episode.season == 2)
        #expect(episode.seasonName == "Licences")
        #expect(episode.number == 12)
        #expect(episode.chaptersURL == URL("https://example.com/osh/12/chapters.json"))
        #expect(episode.chaptersType == "application/json+chapters")
        #expect(episode.transcripts == [
            FeedTranscript(url: URL("https://example.com/osh/12/transcript.vtt"), type: "text/vtt", language: "en", rel: "captions"),
            FeedTranscript(url: URL("https://example.com/osh/12/transcript.srt"), type: "application/x-subrip"),
            FeedTranscript(url: URL("https://example.com/osh/12/transcript-de.json"), type: "application/json", language: "de"),
        ])
        #expect(episode.persons == [
            FeedPerson(name: "Ada Example", href: URL("https://example.com/ada"), imageURL: URL("https://example.com/ada.jpg")),
            FeedPerson(name: "Grace Sample", role: "guest"),
            FeedPerson(name: "Linus Placeholder", role: "writer", group: "writing"),
        ])
        #expect(episode.funding == [FeedFunding(url: URL("https://example.com/donate/12"), title: "Fund this episode")])
        #expect(episode.location == FeedLocation(name: "Paris", geo: "geo:48.8566,2.3522"))
        #expect(episode.license == FeedLicense(name: "cc-by-sa-4.0"))
        #expect(episode.alternateEnclosures == [
            FeedAlternateEnclosure(
                mimeType: "audio/opus", length: 32_000_000, bitrate: 64_000, language: "en", title: "Opus", codecs: "opus",
                isDefault: true,
                // The ipfs: source is dropped: a feed names only web addresses (FeedURLResolver).
                sources: [.init(url: URL("https://cdn.example.com/osh/12.opus"))]),
            FeedAlternateEnclosure(
                mimeType: "video/mp4", length: 700_000_000, height: 1080, title: "Video", rel: "video",
                sources: [.init(url: URL("https://cdn.example.com/osh/12.mp4"))]),
        ])
        #expect(episode.contentHTML == "<p>All about <b>licences</b>.</p>")
        #expect(episode.description == "All about licences.")
        #expect(episode.enclosures == [FeedEnclosure(url: URL("https://cdn.example.com/osh/12.mp3"), mimeType: "audio/mpeg", length: 48_000_000)])

        let trailer = feed.episodes[1]
        #expect(trailer.episodeType == .trailer)
        #expect(trailer.season == 2)
        #expect(trailer.number == nil, "itunes:episode is garbage and podcast:episode 1.5 is not a whole number")
        #expect(trailer.isExplicit == true)
        #expect(trailer.isBlocked == true)
        #expect(trailer.enclosures.first?.length == nil, "length 0 means unknown")
    }

    @Test("identity falls back from guid to enclosure URL to title and date")
    func noGUIDs() throws {
        let feed = try FeedFixture.parse("no-guids.xml")
        #expect(feed.episodes.map(\.identity) == [
            .enclosureURL(URL("https://example.com/a.mp3")),
            .titleAndDate(title: "A text post", published: Date(timeIntervalSince1970: 1_612_260_000)),
            .titleAndDate(title: "Undated text post", published: nil),
            .enclosureURL(URL("https://example.com/blank.mp3")),
        ], "the item with nothing to recognise it by is dropped")
        #expect(feed.episodes.allSatisfy { $0.guid == nil }, "a blank guid is no guid")
        #expect(feed.episodes[0].enclosures.count == 2)
        #expect(feed.episodes.map(\.identity.key) == [
            "url:https://example.com/a.mp3",
            "title:1612260000:A text post",
            "title:-:Undated text post",
            "url:https://example.com/blank.mp3",
        ])
    }

    @Test("a re-run with the same title and a new guid is a new episode")
    func duplicateTitles() throws {
        let feed = try FeedFixture.parse("duplicate-titles.xml")
        #expect(feed.episodes.count == 4)
        #expect(Set(feed.episodes.map(\.title)) == ["Best Of: The Moon", "Untitled"])
        #expect(Set(feed.episodes.map(\.identity)).count == 4)
        #expect(feed.episodes[0].identity == .guid("moon-rerun-2023"))
        #expect(feed.episodes[1].identity == .guid("moon-original"))
        #expect(feed.episodes[2].identity != feed.episodes[3].identity, "same title, different dates")
    }

    @Test("HTML in titles and descriptions; HTML entities and bare ampersands are repaired")
    func htmlEverywhere() throws {
        let feed = try FeedFixture.parse("html-everywhere.xml")
        #expect(feed.title == "Rock & Roll — Weekly")
        #expect(feed.description == "The loudest show.\n\nSince\u{A0}1999.")
        try #require(feed.episodes.count == 3)

        let first = feed.episodes[0]
        #expect(first.title == "Loud & proud")
        #expect(first.contentHTML?.hasPrefix("<p>Show notes with a <a href=\"https://example.com\">link</a>.</p>") == true)
        #expect(first.description == """
            Show notes with a link.

            • First
            • Second & last

            Line one
            Line two

            After a blank line
            """)

        let second = feed.episodes[1]
        #expect(second.title == "Q&A with the band", "a bare & is read as a literal ampersand")
        #expect(second.description == "Plain text & nothing else, 3 < 5.")
        #expect(second.contentHTML == "<h1>Q&amp;A</h1>")

        let third = feed.episodes[2]
        #expect(third.title == "Café session live", "HTML entities XML does not know, decoded")
        #expect(third.description == "A summary wins over an HTML description.")
        #expect(third.contentHTML == "<p>Escaped <em>HTML</em></p>")
        #expect(third.enclosures.first?.url == URL("https://example.com/q?a=1&b=2"))
    }

    @Test("relative URLs resolve against the feed URL and xml:base")
    func relativeURLs() throws {
        let feed = try FeedFixture.parse("relative-urls.xml")
        #expect(feed.link == URL("https://example.com/show/"))
        #expect(feed.imageURL == URL("https://example.com/podcast/images/cover.jpg"))
        try #require(feed.episodes.count == 3)

        let first = feed.episodes[0]
        #expect(first.link == URL("https://example.com/podcast/episodes/1.html"))
        #expect(first.enclosures.map(\.url) == [URL("https://example.com/media/1.mp3")])
        #expect(first.imageURL == URL("https://example.com/podcast/art/1.png"))
        #expect(first.chapters == [
            FeedChapter(start: 0, title: "Intro", url: URL("https://example.com/podcast/notes/1#intro"),
                        imageURL: URL("https://example.com/podcast/art/intro.png")),
            FeedChapter(start: 90, title: "Main"),
        ], "chapters without start or title are skipped")

        let second = feed.episodes[1]
        #expect(second.link == URL("https://cdn.example.net/season2/2.html"))
        #expect(second.enclosures.map(\.url) == [URL("https://cdn.example.net/season2/2.mp3")])
        #expect(second.imageURL == URL("https://cdn.example.net/season2/art/2.png"), "nested xml:base resolves against its parent")

        #expect(feed.episodes[2].enclosures.map(\.url) == [URL("https://media.example.org/3.mp3")])
    }

    /// Person links are kept once resolved (`FeedLinkCache`); the same text
    /// under another `xml:base` must still resolve against that base.
    @Test("a person's links named again resolve alike, and against the xml:base in scope")
    func repeatedPersonLinks() throws {
        func item(_ number: Int, base: String? = nil) -> String {
            """
            <item\(base.map { " xml:base=\"\($0)\"" } ?? "")><guid>\(number)</guid>
            <podcast:person href="people/ada" img=" /photos/ada.jpg ">Ada</podcast:person></item>
            """
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>
            <podcast:person href="people/ada">Ada</podcast:person>
            \(item(1))\(item(2, base: "https://other.example.net/cast/"))\(item(3))\(item(4, base: "https://other.example.net/x/"))
            </channel></rss>
            """
        let feed = try FeedParser().parse(Data(xml.utf8), url: URL(string: "https://example.com/show/feed.xml")!)
        #expect(feed.persons.map(\.href) == [URL(string: "https://example.com/show/people/ada")])
        #expect(feed.episodes.map { $0.persons.first?.href } == [
            URL(string: "https://example.com/show/people/ada"), URL(string: "https://other.example.net/cast/people/ada"),
            URL(string: "https://example.com/show/people/ada"), URL(string: "https://other.example.net/x/people/ada"),
        ])
        #expect(feed.episodes.map { $0.persons.first?.imageURL } == [
            URL(string: "https://example.com/photos/ada.jpg"), URL(string: "https://other.example.net/photos/ada.jpg"),
            URL(string: "https://example.com/photos/ada.jpg"), URL(string: "https://other.example.net/photos/ada.jpg"),
        ])
    }

    @Test("Atom 1.0: entries, enclosure and alternate links, published and updated, content types")
    func atom() throws {
        let feed = try FeedFixture.parse("atom.xml")
        #expect(feed.format == .atom)
        #expect(feed.title == "Atom Cast")
        #expect(feed.description == "An Atom podcast.")
        #expect(feed.link == URL("https://example.com/"))
        #expect(feed.imageURL == URL("https://example.com/logo.png"), "the logo is preferred to the favicon")
        #expect(feed.author == "Atom Author")
        #expect(feed.isExplicit == false)
        #expect(feed.funding == [FeedFunding(url: URL("https://example.com/pay"), title: "Pay us")])
        try #require(feed.episodes.count == 2)

        let first = feed.episodes[0]
        #expect(first.guid == "tag:example.com,2024:1")
        #expect(first.title == "First entry")
        #expect(first.link == URL("https://example.com/1"))
        #expect(first.enclosures == [FeedEnclosure(url: URL("https://example.com/1.mp3"), mimeType: "audio/mpeg", length: 1234)])
        #expect(first.published == Date(timeIntervalSince1970: 1_704_096_000.25), "published wins over updated")
        #expect(first.description == "First summary.")
        #expect(first.contentHTML == "<p>First <b>content</b></p>")
        #expect(first.author == "Guest Writer")
        #expect(first.duration == 2700)

        let second = feed.episodes[1]
        #expect(second.link == URL("https://example.com/2"), "a link without rel is the alternate page")
        #expect(second.enclosures == [FeedEnclosure(url: URL("https://example.com/2.ogg"))])
        #expect(second.published == Date(timeIntervalSince1970: 1_704_272_400), "updated when there is no published")
        #expect(second.description == "Plain content.")
        #expect(second.contentHTML == nil)
    }

    @Test("broken dates are read where they can be, nil where they cannot")
    func brokenDates() throws {
        let feed = try FeedFixture.parse("broken-dates.xml")
        let dates = Dictionary(uniqueKeysWithValues: feed.episodes.map { ($0.guid!, $0.published?.timeIntervalSince1970) })
        #expect(dates["wrong-weekday"] == 1_594_612_800)
        #expect(dates["no-weekday-one-digit-day"] == 1_594_008_000)
        #expect(dates["named-zone"] == 1_594_612_800)
        #expect(dates["no-seconds-no-zone"] == 1_594_612_800)
        #expect(dates["iso-in-pubdate"] == 1_594_612_800)
        #expect(dates["garbage"] == .some(nil))
        #expect(dates["empty"] == .some(nil))
        #expect(dates["dc-date"] == 1_594_612_800)
    }

    @Test("a 2,000-episode feed parses completely, in order, quickly")
    func largeFeed() throws {
        let count = 2_000
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel><title>Daily</title>

            """
        for number in (1...count).reversed() {
            let day = Date(timeIntervalSince1970: 1_577_836_800 + Double(number) * 86_400)
            xml += """
                <item><title>Episode \(number)</title><guid isPermaLink="false">daily-\(number)</guid>
                <pubDate>\(Self.rfc822(day))</pubDate>
                <enclosure url="https://cdn.example.com/\(number).mp3" length="\(1_000_000 + number)" type="audio/mpeg"/>
                <itunes:duration>\(number % 60):\(String(format: "%02d", number % 60)):00</itunes:duration>
                <itunes:episode>\(number)</itunes:episode>
                <description>Summary of episode \(number).</description>
                <content:encoded><![CDATA[<p>Notes for <b>\(number)</b></p>]]></content:encoded></item>

                """
        }
        xml += "</channel></rss>\n"
        let data = Data(xml.utf8)

        let start = Date()
        let feed = try FeedParser().parse(data, url: URL("https://example.com/daily.xml"))
        let elapsed = Date().timeIntervalSince(start)

        #expect(feed.episodes.count == count)
        #expect(feed.episodes.map(\.number) == (1...count).reversed().map { $0 })
        #expect(Set(feed.episodes.map(\.identity)).count == count)
        #expect(feed.episodes.last?.published == Date(timeIntervalSince1970: 1_577_836_800 + 86_400))
        #expect(feed.episodes.first?.description == "Summary of episode 2000.")
        // A generous bound for a debug build on a shared machine; the benchmark measures properly.
        #expect(elapsed < 5, "\(data.count) bytes took \(elapsed) s")

        let newest = try FeedParser(options: .init(maxEpisodes: 10)).parse(data, url: URL("https://example.com/daily.xml"))
        #expect(newest.episodes.map(\.number) == (1_991...2_000).reversed().map { $0 })
    }

    @Test("maxEpisodes keeps the newest, in feed order, undated ones counting as oldest")
    func maxEpisodesKeepsNewest() throws {
        let xml = """
            <rss><channel>
            <item><title>undated</title></item>
            <item><title>2020</title><pubDate>Wed, 01 Jan 2020 00:00:00 GMT</pubDate></item>
            <item><title>2022</title><pubDate>Sat, 01 Jan 2022 00:00:00 GMT</pubDate></item>
            <item><title>2021</title><pubDate>Fri, 01 Jan 2021 00:00:00 GMT</pubDate></item>
            </channel></rss>
            """
        let feed = try FeedParser(options: .init(maxEpisodes: 2)).parse(Data(xml.utf8), url: URL("https://example.com/f"))
        #expect(feed.episodes.map(\.title) == ["2022", "2021"])
        let none = try FeedParser(options: .init(maxEpisodes: 0)).parse(Data(xml.utf8), url: URL("https://example.com/f"))
        #expect(none.episodes.isEmpty)
    }

    private static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}

@Suite("feed parser details")
struct FeedParserDetailTests {
    private func parse(_ xml: String) throws -> Feed {
        try FeedParser().parse(Data(xml.utf8), url: URL("https://example.com/feed.xml"))
    }

    @Test("Atom without its namespace is read as Atom")
    func atomWithoutNamespace() throws {
        let feed = try parse("<feed><title>Bare</title><entry><id>1</id><title>One</title></entry></feed>")
        #expect(feed.format == .atom)
        #expect(feed.title == "Bare")
        #expect(feed.episodes.map(\.title) == ["One"])
    }

    @Test("undeclared prefixes fall back to their conventional namespace")
    func undeclaredPrefixes() throws {
        let feed = try parse("""
            <rss><channel><itunes:author>A</itunes:author><podcast:locked>no</podcast:locked>
            <item><title>T</title><itunes:duration>90</itunes:duration><media:thumbnail url="https://e.com/t.jpg"/></item>
            </channel></rss>
            """)
        #expect(feed.author == "A")
        #expect(feed.isLocked == false)
        #expect(feed.episodes.first?.duration == 90)
        #expect(feed.episodes.first?.imageURL == URL("https://e.com/t.jpg"))
    }

    @Test("an unknown namespace is not mistaken for a known prefix")
    func unknownNamespace() throws {
        let feed = try parse("""
            <rss xmlns:itunes="https://example.com/not-itunes"><channel><itunes:author>A</itunes:author></channel></rss>
            """)
        #expect(feed.author == nil)
    }

    @Test("elements nested where they do not belong are ignored")
    func nesting() throws {
        let feed = try parse("""
            <rss><channel><title>Show</title>
            <image><url>https://e.com/i.png</url><title>Image title</title><link>https://e.com/image-link</link></image>
            <item><title>Ep</title><source><title>Other</title></source></item>
            </channel></rss>
            """)
        #expect(feed.title == "Show")
        #expect(feed.link == nil)
        #expect(feed.episodes.first?.title == "Ep")
    }

    @Test("the same media file as enclosure and media:content is listed once, details merged")
    func duplicateEnclosures() throws {
        let feed = try parse("""
            <rss xmlns:media="http://search.yahoo.com/mrss/"><channel><item><guid>g</guid>
            <enclosure url="https://e.com/a.mp3"/>
            <media:content url="https://e.com/a.mp3" fileSize="10" type="audio/mpeg"/>
            <media:content url="https://e.com/a.mp4" type="video/mp4"/>
            </item></channel></rss>
            """)
        #expect(feed.episodes.first?.enclosures == [
            FeedEnclosure(url: URL("https://e.com/a.mp3"), mimeType: "audio/mpeg", length: 10),
            FeedEnclosure(url: URL("https://e.com/a.mp4"), mimeType: "video/mp4"),
        ])
    }
}
