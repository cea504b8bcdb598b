import Foundation

/// One item (RSS) or entry (Atom) of a feed.
public struct FeedEpisode: Sendable, Equatable, Codable {
    /// `itunes:episodeType`.
    public enum EpisodeType: String, Sendable, Equatable, Codable {
        case full
        case trailer
        case bonus
    }

    /// The feed's own identifier (`guid`, Atom `id`) exactly as written, or `nil`.
    /// Kept verbatim even when it looks like a relative link: it is a name, and
    /// resolving it against the feed URL would change it whenever the feed moves.
    public var guid: String?
    public var title: String?
    /// `itunes:subtitle`: a one-line teaser.
    public var subtitle: String?
    public var published: Date?
    /// Seconds; `nil` when missing or unreadable.
    public var duration: TimeInterval?
    public var link: URL? {
        get { storedLink?.url }
        set { storedLink = newValue.map(FeedLink.init) }
    }
    /// `link`, `imageURL` and `chaptersURL`, made only when asked for if the feed wrote them verbatim (`FeedLink`).
    var storedLink: FeedLink?
    /// Plain text summary, chosen the way podcastparser does: the first text-only
    /// description, summary or media description, else `contentHTML` reduced to text.
    public var description: String?
    /// The show notes as HTML: `content:encoded` (or Atom HTML content), else an
    /// RSS description that turned out to be HTML.
    public var contentHTML: String?
    public var author: String?
    public var imageURL: URL? {
        get { storedImageURL?.url }
        set { storedImageURL = newValue.map(FeedLink.init) }
    }
    var storedImageURL: FeedLink?
    public var season: Int?
    /// `podcast:season name="…"`.
    public var seasonName: String?
    public var number: Int?
    public var episodeType: EpisodeType?
    public var isExplicit: Bool?
    public var isBlocked: Bool
    public var enclosures: [FeedEnclosure]
    public var alternateEnclosures: [FeedAlternateEnclosure]
    /// Podlove Simple Chapters embedded in the feed.
    public var chapters: [FeedChapter]
    /// `podcast:chapters`: chapters in a separate (usually JSON) document.
    public var chaptersURL: URL? {
        get { storedChaptersURL?.url }
        set { storedChaptersURL = newValue.map(FeedLink.init) }
    }
    var storedChaptersURL: FeedLink?
    public var chaptersType: String?
    public var transcripts: [FeedTranscript]
    public var persons: [FeedPerson]
    public var funding: [FeedFunding]
    public var location: FeedLocation?
    public var license: FeedLicense?

    /// What makes this episode "the same episode" across refreshes; see `FeedEpisodeIdentity`.
    public var identity: FeedEpisodeIdentity {
        FeedEpisodeIdentity(guid: guid, enclosureURL: enclosures.first?.url, title: title, published: published)
    }

    public init(
        guid: String? = nil,
        title: String? = nil,
        subtitle: String? = nil,
        published: Date? = nil,
        duration: TimeInterval? = nil,
        link: URL? = nil,
        description: String? = nil,
        contentHTML: String? = nil,
        author: String? = nil,
        imageURL: URL? = nil,
        season: Int? = nil,
        seasonName: String? = nil,
        number: Int? = nil,
        episodeType: EpisodeType? = nil,
        isExplicit: Bool? = nil,
        isBlocked: Bool = false,
        enclosures: [FeedEnclosure] = [],
        alternateEnclosures: [FeedAlternateEnclosure] = [],
        chapters: [FeedChapter] = [],
        chaptersURL: URL? = nil,
        chaptersType: String? = nil,
        transcripts: [FeedTranscript] = [],
        persons: [FeedPerson] = [],
        funding: [FeedFunding] = [],
        location: FeedLocation? = nil,
        license: FeedLicense? = nil
    ) {
        self.guid = guid
        self.title = title
        self.subtitle = subtitle
        self.published = published
        self.duration = duration
        storedLink = link.map(FeedLink.init)
        self.description = description
        self.contentHTML = contentHTML
        self.author = author
        storedImageURL = imageURL.map(FeedLink.init)
        self.season = season
        self.seasonName = seasonName
        self.number = number
        self.episodeType = episodeType
        self.isExplicit = isExplicit
        self.isBlocked = isBlocked
        self.enclosures = enclosures
        self.alternateEnclosures = alternateEnclosures
        self.chapters = chapters
        storedChaptersURL = chaptersURL.map(FeedLink.init)
        self.chaptersType = chaptersType
        self.transcripts = transcripts
        self.persons = persons
        self.funding = funding
        self.location = location
        self.license = license
    }

    /// Encoded under the names and in the order of the fields: content hashes stay as they were.
    private enum CodingKeys: String, CodingKey {
        case guid, title, subtitle, published, duration, storedLink = "link", description, contentHTML, author,
             storedImageURL = "imageURL", season, seasonName, number, episodeType, isExplicit, isBlocked, enclosures,
             alternateEnclosures, chapters, storedChaptersURL = "chaptersURL", chaptersType, transcripts, persons, funding,
             location, license
    }
}
