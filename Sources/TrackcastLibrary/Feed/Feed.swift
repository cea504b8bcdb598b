import Foundation

/// A podcast feed as Trackcast understands it, whatever format it came in.
///
/// Optionals are `nil` when the feed does not say; the parser never invents a
/// value (a missing title stays `nil`; the store and UI pick their own fallback,
/// such as the feed URL's host).
public struct Feed: Sendable, Equatable, Codable {
    public enum Format: String, Sendable, Equatable, Codable {
        case rss
        case atom
    }

    /// `itunes:type`: whether episodes are meant to be heard newest first or in order.
    public enum ShowType: String, Sendable, Equatable, Codable {
        case episodic
        case serial
    }

    public var format: Format
    public var title: String?
    /// The podcast's web site.
    public var link: URL?
    /// Plain text; HTML in the feed is reduced to text.
    public var description: String?
    public var author: String?
    public var language: String?
    public var imageURL: URL?
    /// `itunes:new-feed-url` or RSS `redirect/newLocation`: the publisher moved the feed.
    public var newFeedURL: URL?
    /// `podcast:guid`: the podcast's own identifier, independent of where it is hosted.
    public var podcastGUID: String?
    /// `itunes:block`: the publisher asks directories not to list the podcast.
    public var isBlocked: Bool
    /// `itunes:complete`: no more episodes will be published.
    public var isComplete: Bool
    public var showType: ShowType?
    public var isExplicit: Bool?
    /// `podcast:locked`: the publisher forbids importing the feed into other hosting platforms.
    public var isLocked: Bool?
    public var funding: [FeedFunding]
    public var persons: [FeedPerson]
    public var license: FeedLicense?
    public var location: FeedLocation?
    /// `podcast:trailer`: channel-level trailers, which need not be items of the feed.
    public var trailers: [FeedTrailer]
    /// In the order the feed lists them.
    public var episodes: [FeedEpisode]

    public init(
        format: Format = .rss,
        title: String? = nil,
        link: URL? = nil,
        description: String? = nil,
        author: String? = nil,
        language: String? = nil,
        imageURL: URL? = nil,
        newFeedURL: URL? = nil,
        podcastGUID: String? = nil,
        isBlocked: Bool = false,
        isComplete: Bool = false,
        showType: ShowType? = nil,
        isExplicit: Bool? = nil,
        isLocked: Bool? = nil,
        funding: [FeedFunding] = [],
        persons: [FeedPerson] = [],
        license: FeedLicense? = nil,
        location: FeedLocation? = nil,
        trailers: [FeedTrailer] = [],
        episodes: [FeedEpisode] = []
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.description = description
        self.author = author
        self.language = language
        self.imageURL = imageURL
        self.newFeedURL = newFeedURL
        self.podcastGUID = podcastGUID
        self.isBlocked = isBlocked
        self.isComplete = isComplete
        self.showType = showType
        self.isExplicit = isExplicit
        self.isLocked = isLocked
        self.funding = funding
        self.persons = persons
        self.license = license
        self.location = location
        self.trailers = trailers
        self.episodes = episodes
    }
}
