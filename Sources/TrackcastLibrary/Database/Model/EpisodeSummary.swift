import Foundation

/// What an episode row in a list needs: enough to show it and to play it.
public struct EpisodeSummary: Sendable, Equatable, Identifiable {
    public let id: EpisodeID
    public let showID: ShowID
    public let showTitle: String?
    public let title: String?
    public let published: Date?
    /// Seconds, as the feed gives it.
    public let duration: TimeInterval?
    /// The episode's own artwork; lists fall back to `showImageURL`.
    public let imageURL: URL?
    public let showImageURL: URL?
    public let isPlayed: Bool
    /// Arrived with a refresh after the show was subscribed, and not yet seen or played.
    public let isNew: Bool
    /// The first enclosure: what plays.
    public let mediaURL: URL?
    public let mediaType: String?
    public let resumePosition: ResumePosition?
    public let downloadState: DownloadState?
}
