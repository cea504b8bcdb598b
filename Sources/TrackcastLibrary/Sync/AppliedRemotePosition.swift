import Foundation

/// A position another device sent that moved an episode's resume position
/// (or finished it): what the app tells the listener about.
public struct AppliedRemotePosition: Sendable, Equatable {
    public var episode: EpisodeID
    public var position: TimeInterval
    /// The device the action came from, as the server names it.
    public var device: String?
    /// The episode was finished there and is now marked played.
    public var finished: Bool
}
