import Foundation

/// Writes RSS feeds shaped like the ones podcast hosts serve (iTunes and
/// content namespaces, CDATA show notes with HTML, enclosures with lengths,
/// RFC 822 dates, a channel image), for tests to serve on loopback.
public struct PodcastFeedWriter: Sendable {
    public var title: String
    public var episodes: Int
    /// Marks every episode's title, to make a changed feed.
    public var revision = 0
    public var newFeedURL: String?
    /// Where the episodes' media live: `\(mediaBase)/\(slug)/\(number).mp3`.
    public var mediaBase = "https://media.example.org"

    public init(title: String, episodes: Int, revision: Int = 0, newFeedURL: String? = nil,
                mediaBase: String = "https://media.example.org") {
        self.title = title
        self.episodes = episodes
        self.revision = revision
        self.newFeedURL = newFeedURL
        self.mediaBase = mediaBase
    }

    public func data() -> Data { Data(xml().utf8) }

    public func xml() -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
              <channel>
                <title>\(title)</title>
                <link>https://example.org/\(slug)</link>
                <atom:link href="https://feeds.example.org/\(slug).xml" rel="self" type="application/rss+xml"/>
                <description>Conversations about \(title) &amp; more.</description>
                <language>en-us</language>
                <copyright>© 2024 Example Media</copyright>
                <itunes:author>Example Media</itunes:author>
                <itunes:image href="https://example.org/\(slug)/cover.jpg"/>
                <itunes:category text="Technology"/>
                <itunes:explicit>false</itunes:explicit>

            """
        if let newFeedURL { text += "    <itunes:new-feed-url>\(newFeedURL)</itunes:new-feed-url>\n" }
        for number in stride(from: episodes, to: 0, by: -1) {
            let date = Date(timeIntervalSince1970: 1_704_067_200 + Double(number) * 604_800)
            text += """
                    <item>
                      <title>\(revision > 0 ? "(r\(revision)) " : "")Episode \(number): Topic \(number)</title>
                      <guid isPermaLink="false">\(slug)-\(number)</guid>
                      <pubDate>\(Self.rfc822.string(from: date))</pubDate>
                      <description><![CDATA[<p>In episode \(number) we talk about <a href="https://example.org/\(number)">topic \(number)</a>.</p><ul><li>Intro</li><li>Main part</li></ul>]]></description>
                      <content:encoded><![CDATA[<p>Full show notes for episode \(number).</p>]]></content:encoded>
                      <enclosure url="\(mediaBase)/\(slug)/\(number).mp3" length="\(30_000_000 + number)" type="audio/mpeg"/>
                      <itunes:duration>\(40 + number % 20):\(String(format: "%02d", number % 60))</itunes:duration>
                      <itunes:episode>\(number)</itunes:episode>
                    </item>

                """
        }
        return text + "  </channel>\n</rss>\n"
    }

    /// The title as a URL path segment.
    public var slug: String {
        title.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") { $0.append($1) }
    }

    private static let rfc822: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }()
}
