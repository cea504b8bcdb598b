import Foundation

/// One show a directory found.
public struct DirectoryResult: Sendable, Equatable, Identifiable {
    public let title: String
    public let author: String?
    /// Always `http` or `https`.
    public let feedURL: URL
    /// Always `http` or `https`.
    public let artworkURL: URL?
    public let episodeCount: Int?
    public let genre: String?

    public var id: URL { feedURL }

    public init(title: String, author: String?, feedURL: URL, artworkURL: URL?, episodeCount: Int?, genre: String?) {
        self.title = title
        self.author = author
        self.feedURL = feedURL
        self.artworkURL = artworkURL
        self.episodeCount = episodeCount
        self.genre = genre
    }
}
