import Foundation

/// An episode with everything the library keeps about it, for the episode page.
public struct EpisodeDetail: Sendable, Equatable {
    public let summary: EpisodeSummary
    public let guid: String?
    public let subtitle: String?
    public let author: String?
    public let link: URL?
    /// Plain text.
    public let description: String?
    public let contentHTML: String?
    public let season: Int?
    public let seasonName: String?
    public let number: Int?
    public let episodeType: FeedEpisode.EpisodeType?
    public let isExplicit: Bool?
    public let chaptersURL: URL?
    public let chaptersType: String?
    /// When the library first saw the episode in its feed.
    public let firstSeen: Date
    public let enclosures: [FeedEnclosure]
    public let chapters: [FeedChapter]
    public let transcripts: [FeedTranscript]
    public let persons: [FeedPerson]
    public let funding: [FeedFunding]
}
