import Foundation
import TrackcastCore

/// Where playback of an episode or file stopped.
public struct ResumePosition: Sendable, Equatable {
    /// Seconds from the start.
    public let position: TimeInterval
    /// The media's duration as the player measured it, if known.
    public let duration: TimeInterval?
    public let updated: Date

    public init(position: TimeInterval, duration: TimeInterval?, updated: Date) {
        // Within what a seek can take, however they were stored.
        self.position = MediaTime.seconds(position) ?? 0
        self.duration = duration.flatMap(MediaTime.seconds)
        self.updated = updated
    }
}
