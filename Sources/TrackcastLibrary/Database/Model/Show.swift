import Foundation

/// A subscribed show as the library has it: the feed's channel fields from the
/// last refresh, refresh bookkeeping, the user's settings for it, and counts.
public struct Show: Sendable, Equatable, Identifiable {
    public let id: ShowID
    /// Where the show is refreshed from; unique in the library.
    public let feedURL: URL
    public let title: String?
    public let link: URL?
    public let description: String?
    public let author: String?
    public let language: String?
    public let imageURL: URL?
    /// The feed's announcement that it moved; acting on it is the refresh's job.
    public let newFeedURL: URL?
    public let podcastGUID: String?
    public let showType: Feed.ShowType?
    public let isExplicit: Bool?
    public let isLocked: Bool?
    public let isComplete: Bool
    public let subscribed: Date
    public let refresh: ShowRefreshState
    public let settings: ShowSettings
    public let unplayedCount: Int
    public let newCount: Int
}
