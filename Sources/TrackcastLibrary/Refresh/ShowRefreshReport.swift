import Foundation

/// How refreshing one show went.
public struct ShowRefreshReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// A new or changed feed was applied (which may have changed nothing).
        case updated(FeedApplyResult)
        /// 304 Not Modified: nothing was downloaded or parsed.
        case notModified
        /// Recorded on the show as its last failure.
        case failed(RefreshFailure)
        /// The refresh was cancelled before this show finished; nothing recorded.
        case cancelled
        /// The show left the library (or moved) while its feed was in flight.
        case unsubscribed
    }

    public let showID: ShowID
    /// The show's title after the refresh (before it, if it failed).
    public let title: String?
    /// Where the show is refreshed from now.
    public let feedURL: URL
    /// Where it was refreshed from before a permanent redirect or
    /// `itunes:new-feed-url` moved it; `nil` if it did not move.
    public let movedFrom: URL?
    public let outcome: Outcome

    public var isFailure: Bool {
        if case .failed = outcome { return true }
        return false
    }

    /// The episodes this refresh brought to a show it had refreshed before (`FeedApplyResult.arrivals`).
    public var arrivals: [EpisodeID] {
        if case .updated(let result) = outcome { return result.arrivals }
        return []
    }
}

/// What a running refresh reports, show by show, as it goes.
public enum RefreshProgress: Sendable, Equatable {
    case started(ShowID, feedURL: URL)
    case finished(ShowRefreshReport)
}
