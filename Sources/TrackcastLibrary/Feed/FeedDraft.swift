import Foundation

/// The podcast-level values as they are found, several candidates per field,
/// until the document ends and `finished` picks one by a fixed preference
/// (independent of the order elements appear in).
struct FeedDraft {
    var format: Feed.Format = .rss
    private var feed = Feed()
    private var channelDescription: String?
    private var summary: String?
    private var subtitle: String?
    private var itunesAuthor: String?
    private var atomAuthorName: String?
    private var channelLink: URL?
    private var alternateLink: URL?
    private var itunesImage: URL?
    private var channelImage: URL?
    private var atomLogo: URL?
    private var atomIcon: URL?
    private var itunesNewFeedURL: URL?
    private var redirectLocation: URL?

    mutating func set(_ field: FeedElement.FeedField, text: String, attributes: XMLAttributeValues, base: URL?,
                      links: inout FeedLinkCache) {
        switch field {
        case .title:
            feed.title = FeedText.line(text)
        case .link:
            channelLink = FeedURLResolver.resolve(text, against: base)
        case .description:
            channelDescription = text
        case .summary:
            summary = text
        case .subtitle:
            subtitle = text
        case .itunesAuthor:
            itunesAuthor = FeedText.line(text)
        case .authorName:
            atomAuthorName = FeedText.line(text)
        case .language:
            feed.language = FeedText.nonEmpty(text)
        case .explicit:
            feed.isExplicit = FeedValueParser.flag(text) ?? feed.isExplicit
        case .showType:
            feed.showType = Feed.ShowType(rawValue: FeedText.trimmed(text).lowercased()) ?? feed.showType
        case .newFeedURL:
            itunesNewFeedURL = FeedURLResolver.resolve(text, against: base)
        case .redirectLocation:
            redirectLocation = FeedURLResolver.resolve(text, against: base)
        case .block:
            feed.isBlocked = FeedValueParser.flag(text) == true
        case .complete:
            feed.isComplete = FeedValueParser.flag(text) == true
        case .locked:
            feed.isLocked = FeedValueParser.flag(text) ?? feed.isLocked
        case .funding:
            if let funding = PodcastNamespaceValues.funding(text: text, attributes: attributes, base: base) {
                feed.funding.append(funding)
            }
        case .podcastGUID:
            feed.podcastGUID = FeedText.nonEmpty(text)
        case .license:
            feed.license = PodcastNamespaceValues.license(text: text, attributes: attributes, base: base) ?? feed.license
        case .location:
            feed.location = PodcastNamespaceValues.location(text: text, attributes: attributes) ?? feed.location
        case .person:
            if let person = PodcastNamespaceValues.person(text: text, attributes: attributes, base: base, links: &links) {
                feed.persons.append(person)
            }
        case .trailer:
            if let trailer = PodcastNamespaceValues.trailer(text: text, attributes: attributes, base: base) {
                feed.trailers.append(trailer)
            }
        case .imageURL:
            channelImage = FeedURLResolver.resolve(text, against: base)
        case .icon:
            atomIcon = FeedURLResolver.resolve(text, against: base)
        case .logo:
            atomLogo = FeedURLResolver.resolve(text, against: base)
        }
    }

    mutating func apply(_ leaf: FeedElement.FeedLeaf, attributes: XMLAttributeValues, base: URL?) {
        guard let url = attributes["href"].flatMap({ FeedURLResolver.resolve($0, against: base) }) else { return }
        switch leaf {
        case .image:
            itunesImage = url
        case .link:
            addLink(url, attributes: attributes)
        }
    }

    /// `atom:link` at feed level: the web site, or a payment link.
    private mutating func addLink(_ url: URL, attributes: XMLAttributeValues) {
        let rel = FeedText.trimmed(attributes["rel"] ?? "alternate").lowercased()
        switch rel {
        case "payment":
            feed.funding.append(FeedFunding(url: url, title: attributes["title"].flatMap(FeedText.line)))
        case "alternate":
            // In RSS an alternate atom:link must say it is a page; Atom's own links default to one.
            let type = attributes["type"].map { FeedText.trimmed($0).lowercased() }
            let isPage = type == "text/html" || (format == .atom && type == nil)
            if isPage && alternateLink == nil {
                alternateLink = url
            }
        default:
            break
        }
    }

    /// The feed, with its fields chosen: iTunes values over plain RSS ones where
    /// both exist (the iTunes image is the large square cover), RSS over Atom ones.
    func finished(episodes: [FeedEpisode]) -> Feed {
        var feed = self.feed
        feed.format = format
        feed.link = channelLink ?? alternateLink
        feed.description = [channelDescription, summary, subtitle].lazy
            .compactMap { $0.flatMap(FeedText.paragraphs) }
            .first
        feed.author = itunesAuthor ?? atomAuthorName
        feed.imageURL = itunesImage ?? channelImage ?? atomLogo ?? atomIcon
        feed.newFeedURL = itunesNewFeedURL ?? redirectLocation
        feed.episodes = episodes
        return feed
    }
}
