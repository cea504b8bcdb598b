import Foundation

/// A subscription change not yet sent; `revision` tells it from the same
/// feed changed again while it was on the way.
public struct PendingSubscriptionChange: Sendable, Equatable {
    public var feedURL: String
    public var isAdd: Bool
    public var revision: Int64
}

/// An episode action not yet sent: its row, and the action as it will be sent.
public struct PendingEpisodeAction: Sendable, Equatable {
    public var id: Int64
    public var action: EpisodeAction
}
