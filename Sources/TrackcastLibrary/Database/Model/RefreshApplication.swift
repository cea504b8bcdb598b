import Foundation

/// What applying a refreshed feed to a show did.
public struct RefreshApplication: Sendable, Equatable {
    public let result: FeedApplyResult
    /// Where the show is refreshed from now: moved by a permanent redirect or
    /// the feed's `itunes:new-feed-url`, else where it was.
    public let feedURL: URL
}
