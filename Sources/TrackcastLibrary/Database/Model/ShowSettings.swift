import Foundation
import TrackcastCore

/// The user's settings for one show.
public struct ShowSettings: Sendable, Equatable {
    /// `nil`: use the app-wide speed.
    public var playbackSpeed: Double?
    /// Seconds skipped at the start of each episode.
    public var skipIntro: TimeInterval
    /// Seconds skipped at the end of each episode.
    public var skipOutro: TimeInterval
    /// Download new episodes as they arrive.
    public var autoDownload: Bool

    public init(playbackSpeed: Double? = nil, skipIntro: TimeInterval = 0, skipOutro: TimeInterval = 0,
                autoDownload: Bool = false) {
        self.playbackSpeed = playbackSpeed
        // Within what a seek can take, however they were stored (D-Bus takes any double).
        self.skipIntro = MediaTime.seconds(skipIntro) ?? 0
        self.skipOutro = MediaTime.seconds(skipOutro) ?? 0
        self.autoDownload = autoDownload
    }
}
