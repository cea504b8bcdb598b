import Foundation
import TrackcastCore

/// What one sync sent and received.
public struct SyncReport: Sendable {
    public var sentSubscriptionChanges = 0
    public var sentActions = 0
    public var receivedSubscriptionChanges = 0
    /// Positions from other devices that moved a resume position or finished an episode.
    public var positions: [AppliedRemotePosition] = []
    /// Shows other devices subscribed to, added here and still to be fetched.
    public var addedShows: [ShowID] = []
    /// Shows other devices unsubscribed from, removed here, with the device
    /// that removed them when the server says (gpodder.net does not; the
    /// account's other devices are named in the toast then).
    public var removedShows: [(show: Show, files: [URL])] = []
    /// HTTP requests made.
    public var requests = 0

    public init() {}

    /// The line `trackcast sync` prints and Preferences shows.
    public var summary: String {
        String(format: tr("sent %d subscription changes and %d actions, received %d subscription changes and %d positions"),
               sentSubscriptionChanges, sentActions, receivedSubscriptionChanges, positions.count)
    }
}
