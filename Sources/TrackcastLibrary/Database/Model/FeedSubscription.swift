import Foundation

/// A feed to subscribe to without fetching it first, as subscription lists
/// (OPML) carry them; the first refresh fills in the rest.
public struct FeedSubscription: Sendable, Equatable {
    public var feedURL: URL
    public var title: String?
    /// The podcast's web site.
    public var link: URL?

    public init(feedURL: URL, title: String? = nil, link: URL? = nil) {
        self.feedURL = feedURL
        self.title = title
        self.link = link
    }
}
