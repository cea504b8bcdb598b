import Foundation

/// What the last refresh of a show left behind: the validators for a
/// conditional GET and how it went.
public struct ShowRefreshState: Sendable, Equatable {
    public let etag: String?
    public let lastModified: String?
    /// When the feed was last fetched successfully (including "not modified").
    public let lastRefreshed: Date?
    /// Set by a failed refresh, cleared by the next successful one.
    public let lastFailure: RefreshFailure?
    /// What the last applied feed document was (`FeedDocumentLayout`); `nil`
    /// before the first refresh, and for feeds applied from elsewhere than a fetch.
    public let feedLayout: FeedDocumentLayout?
}
