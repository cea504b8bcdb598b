/// What `FeedRefresher.subscribe(to:)` did.
public struct SubscribeResult: Sendable, Equatable {
    public let show: Show
    /// `nil` when the feed was already in the library: nothing was fetched or written.
    public let applied: FeedApplyResult?

    public var wasAlreadySubscribed: Bool { applied == nil }
}
