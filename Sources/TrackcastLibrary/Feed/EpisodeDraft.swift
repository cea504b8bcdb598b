import Foundation
import TrackcastCore

/// One item or entry while it is being read: candidate values per field, kept
/// apart until `finished` chooses, so the result does not depend on the order
/// of elements inside the item.
struct EpisodeDraft {
    private var episode = FeedEpisode()
    /// RSS `guid isPermaLink`: absent means true (RSS 2.0), `nil` for Atom ids.
    /// The page an RSS permalink guid points to.
    private var guidLink: FeedLink?
    /// podcastparser's `description`: the text-only summary, in its overwrite
    /// order; kept as read (and never blank) and squashed in `finished` only
    /// if it is used: most feeds repeat their HTML show notes in `itunes:summary`,
    /// which then loses to `content:encoded`.
    private var textDescription = ""
    /// podcastparser's `description_html`.
    private var htmlDescription = ""
    // Links as `FeedLink`s: an episode's URLs are made only if asked for.
    private var rssLink: FeedLink?
    private var alternateLink: FeedLink?
    private var itunesImage: FeedLink?
    private var thumbnail: FeedLink?
    private var itunesSeason: Int?
    private var podcastSeason: Int?
    private var itunesNumber: Int?
    private var podcastNumber: Int?
    private var pubDate: Date?
    private var atomPublished: Date?
    private var dcDate: Date?
    private var atomUpdated: Date?
    private var itunesAuthor: String?
    private var creator: String?
    private var rssAuthor: String?
    private var atomAuthorName: String?
    private var alternateEnclosure: FeedAlternateEnclosure?

    mutating func set(_ field: FeedElement.EpisodeField, text: String, attributes: XMLAttributeValues, base: URL?,
                      links: inout FeedLinkCache) {
        switch field {
        case .title:
            episode.title = FeedText.line(text)
        case .link:
            rssLink = FeedURLResolver.resolveLink(text, against: base) ?? rssLink
        case .guid:
            episode.guid = FeedText.nonEmpty(text)
            guidLink = episode.guid.flatMap {
                Self.permaLink(guid: $0, isPermaLink: attributes["isPermaLink"], base: base)
            }
        case .atomID:
            episode.guid = FeedText.nonEmpty(text)
        case .description:
            // RSS 2.0 all but invites HTML here: HTML goes with content:encoded's kind,
            // text with the summaries', neither overwriting what is already there.
            if HTMLText.looksLikeHTML(text) {
                if htmlDescription.isEmpty { htmlDescription = FeedText.trimmed(text) }
            } else if textDescription.isEmpty && !FeedText.isBlank(text) {
                textDescription = text
            }
        case .summary, .mediaDescription:
            if !FeedText.isBlank(text) { textDescription = text }
        case .subtitle:
            episode.subtitle = FeedText.line(text)
        case .contentEncoded:
            let value = FeedText.trimmed(text)
            if !value.isEmpty { htmlDescription = value }
        case .atomContent:
            let type = attributes["type"].map { FeedText.trimmed($0).lowercased() } ?? "text"
            if type == "html" || type == "text/html" {
                let value = FeedText.trimmed(text)
                if !value.isEmpty { htmlDescription = value }
            } else {
                // "text", and "xhtml" whose markup arrives as elements: its text is what is left.
                if !FeedText.isBlank(text) { textDescription = text }
            }
        case .atomSummary:
            if textDescription.isEmpty && !FeedText.isBlank(text) { textDescription = text }
        case .itunesAuthor:
            itunesAuthor = FeedText.line(text)
        case .creator:
            creator = FeedText.line(text)
        case .rssAuthor:
            rssAuthor = FeedText.line(text)
        case .authorName:
            atomAuthorName = FeedText.line(text)
        case .duration:
            episode.duration = FeedDurationParser.seconds(from: text) ?? episode.duration
        case .pubDate:
            pubDate = FeedDateParser.parse(text)
        case .dcDate:
            dcDate = FeedDateParser.parse(text)
        case .published:
            atomPublished = FeedDateParser.parse(text)
        case .updated:
            atomUpdated = FeedDateParser.parse(text)
        case .explicit:
            episode.isExplicit = FeedValueParser.flag(text) ?? episode.isExplicit
        case .block:
            episode.isBlocked = FeedValueParser.flag(text) == true
        case .episodeType:
            episode.episodeType = FeedEpisode.EpisodeType(rawValue: FeedText.trimmed(text).lowercased()) ?? episode.episodeType
        case .season:
            itunesSeason = FeedValueParser.positiveInteger(text)
        case .number:
            itunesNumber = FeedValueParser.positiveInteger(text)
        case .podcastSeason:
            podcastSeason = FeedValueParser.positiveInteger(text)
            episode.seasonName = attributes["name"].flatMap(FeedText.line)
        case .podcastEpisode:
            // The namespace allows decimals ("1.5"); only whole numbers fit `number`.
            if let value = FeedValueParser.number(text), value >= 1, value.rounded() == value, value < 1e9 {
                podcastNumber = Int(value)
            }
        case .funding:
            if let funding = PodcastNamespaceValues.funding(text: text, attributes: attributes, base: base) {
                episode.funding.append(funding)
            }
        case .license:
            episode.license = PodcastNamespaceValues.license(text: text, attributes: attributes, base: base) ?? episode.license
        case .location:
            episode.location = PodcastNamespaceValues.location(text: text, attributes: attributes) ?? episode.location
        case .person:
            if let person = PodcastNamespaceValues.person(text: text, attributes: attributes, base: base, links: &links) {
                episode.persons.append(person)
            }
        }
    }

    mutating func apply(_ leaf: FeedElement.EpisodeLeaf, attributes: borrowing XMLAttributes, base: URL?) {
        func url(_ name: StaticString) -> FeedLink? {
            attributes[name].flatMap { FeedURLResolver.resolveLink($0, against: base) }
        }
        switch leaf {
        case .enclosure:
            addEnclosure(url: url("url"), type: attributes["type"], length: attributes["length"])
        case .mediaContent:
            addEnclosure(url: url("url"), type: attributes["type"], length: attributes["fileSize"])
        case .mediaThumbnail:
            thumbnail = thumbnail ?? url("url")
        case .image:
            itunesImage = url("href") ?? itunesImage
        case .link:
            addLink(url: url("href"), attributes: attributes)
        case .chapter:
            // Podlove requires both start and title; a chapter without either is skipped.
            guard let start = attributes["start"].flatMap(FeedDurationParser.seconds(from:)).flatMap(MediaTime.seconds),
                  let title = attributes["title"] else { return }
            episode.chapters.append(FeedChapter(
                start: start,
                title: FeedText.squashingWhitespace(title),
                link: url("href"),
                imageLink: url("image")
            ))
        case .chaptersLink:
            guard let chaptersURL = url("url") else { return }
            episode.storedChaptersURL = chaptersURL
            episode.chaptersType = FeedValueParser.mimeType(attributes["type"])
        case .transcript:
            guard let transcriptURL = url("url") else { return }
            episode.transcripts.append(FeedTranscript(
                link: transcriptURL,
                type: FeedValueParser.mimeType(attributes["type"]),
                language: attributes["language"].flatMap(FeedText.nonEmpty),
                rel: attributes["rel"].flatMap(FeedText.nonEmpty)
            ))
        case .source:
            guard let sourceURL = url("uri") else { return }
            alternateEnclosure?.sources.append(FeedAlternateEnclosure.Source(
                url: sourceURL.url,
                contentType: FeedValueParser.mimeType(attributes["contentType"])
            ))
        }
    }

    mutating func beginAlternateEnclosure(attributes: XMLAttributeValues) {
        alternateEnclosure = FeedAlternateEnclosure(
            mimeType: FeedValueParser.mimeType(attributes["type"]),
            length: FeedValueParser.length(attributes["length"]),
            bitrate: FeedValueParser.number(attributes["bitrate"]),
            height: attributes["height"].flatMap(FeedValueParser.positiveInteger),
            language: attributes["lang"].flatMap(FeedText.nonEmpty),
            title: attributes["title"].flatMap(FeedText.line),
            rel: attributes["rel"].flatMap(FeedText.nonEmpty),
            codecs: attributes["codecs"].flatMap(FeedText.nonEmpty),
            isDefault: attributes["default"].flatMap(FeedValueParser.flag) == true
        )
    }

    /// A rendition with no source cannot be played, so it is dropped.
    mutating func endAlternateEnclosure() {
        if let alternate = alternateEnclosure, !alternate.sources.isEmpty {
            episode.alternateEnclosures.append(alternate)
        }
        alternateEnclosure = nil
    }

    /// Enclosures are unique by URL: feeds list the same file as `enclosure` and
    /// `media:content`; the first mention wins and later ones fill in what it lacked.
    private mutating func addEnclosure(url: FeedLink?, type: String?, length: String?) {
        guard let url else { return }
        let mimeType = FeedValueParser.mimeType(type)
        let byteCount = FeedValueParser.length(length)
        if let index = episode.enclosures.firstIndex(where: { $0.storedURL == url }) {
            episode.enclosures[index].mimeType = episode.enclosures[index].mimeType ?? mimeType
            episode.enclosures[index].length = episode.enclosures[index].length ?? byteCount
        } else {
            episode.enclosures.append(FeedEnclosure(link: url, mimeType: mimeType, length: byteCount))
        }
    }

    /// `atom:link` in an entry or item: a media file, a payment link, or the web page.
    private mutating func addLink(url: FeedLink?, attributes: borrowing XMLAttributes) {
        guard let url else { return }
        let rel = FeedText.trimmed(attributes["rel"] ?? "alternate").lowercased()
        let type = attributes["type"].map { FeedText.trimmed($0).lowercased() }
        switch rel {
        case "enclosure":
            addEnclosure(url: url, type: type, length: attributes["length"])
        case "payment":
            episode.funding.append(FeedFunding(url: url.url, title: attributes["title"].flatMap(FeedText.line)))
        case "alternate", "self":
            if (type == nil || type == "text/html") && alternateLink == nil {
                alternateLink = url
            }
        default:
            break
        }
    }

    /// The episode, or `nil` when it has nothing to be recognised by (no guid,
    /// no enclosure, no title); see `FeedEpisodeIdentity`.
    mutating func finished() -> FeedEpisode? {
        // Moved out, not copied: a copy retains each of the episode's many fields.
        var episode = FeedEpisode()
        swap(&episode, &self.episode)
        guard episode.guid != nil || !episode.enclosures.isEmpty || episode.title != nil else { return nil }

        var html = htmlDescription
        var text = ""
        if HTMLText.looksLikeHTML(textDescription) {
            // Squashing turns whitespace into spaces and line breaks and nothing else: HTML stays HTML.
            if html.isEmpty { html = FeedText.squashingWhitespaceKeepingNewlines(textDescription) }
        } else {
            let squashed = FeedText.squashingWhitespaceKeepingNewlines(textDescription)
            // But text can become HTML: `<br\u{A0}>` squashes to `<br >`.
            if !HTMLText.looksLikeHTML(squashed) {
                text = squashed
            } else if html.isEmpty {
                html = squashed
            }
        }
        episode.contentHTML = html.isEmpty ? nil : html
        episode.description = text.isEmpty
            ? (html.isEmpty ? nil : FeedText.paragraphs(html))
            : FeedText.paragraphs(text)

        episode.published = pubDate ?? atomPublished ?? dcDate ?? atomUpdated
        episode.storedLink = rssLink ?? alternateLink ?? guidLink
        episode.storedImageURL = itunesImage ?? thumbnail
        episode.season = itunesSeason ?? podcastSeason
        episode.number = itunesNumber ?? podcastNumber
        episode.author = itunesAuthor ?? creator ?? atomAuthorName ?? rssAuthor
        return episode
    }

    /// An RSS guid that is a permalink doubles as the episode's page. RSS says a
    /// guid without `isPermaLink` is one, but most such guids are opaque ids, so
    /// only an absolute web URL is trusted unless the feed says `isPermaLink="true"`.
    private static func permaLink(guid: String, isPermaLink: String?, base: URL?) -> FeedLink? {
        switch isPermaLink.map({ FeedText.trimmed($0).lowercased() }) {
        case "true":
            return FeedURLResolver.resolveLink(guid, against: base)
        case nil:
            let lowered = guid.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
            return URL(string: guid).map(FeedLink.init)
        default:
            return nil
        }
    }
}
