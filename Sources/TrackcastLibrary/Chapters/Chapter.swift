import Foundation

/// A chapter of an episode, from whichever source had it.
public struct Chapter: Sendable, Equatable {
    public enum Source: Int, Sendable, Comparable {
        /// In the media file (ID3 CHAP, MP4, Matroska, a cue sheet).
        case embedded
        /// Podlove Simple Chapters in the feed.
        case feed
        /// A Podcasting 2.0 chapters file, the publisher's fullest list.
        case chaptersFile

        public static func < (lhs: Source, rhs: Source) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Seconds from the start of the media.
    public var start: TimeInterval
    public var title: String?
    public var url: URL?
    public var imageURL: URL?
    /// Podcasting 2.0's `toc: false`: a chapter that marks a place (to
    /// change the artwork, say) but is not listed.
    public var isListed: Bool
    public var source: Source

    public init(start: TimeInterval, title: String?, url: URL? = nil, imageURL: URL? = nil, isListed: Bool = true,
                source: Source) {
        self.start = start
        self.title = title
        self.url = url
        self.imageURL = imageURL
        self.isListed = isListed
        self.source = source
    }
}
