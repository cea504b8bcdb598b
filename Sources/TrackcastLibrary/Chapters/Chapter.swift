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
    public var image: ChapterImage?
    /// Podcasting 2.0's `toc: false`: a chapter that marks a place (to
    /// change the artwork, say) but is not listed.
    public var isListed: Bool
    public var source: Source

    public init(start: TimeInterval, title: String?, url: URL? = nil, image: ChapterImage? = nil, isListed: Bool = true,
                source: Source) {
        self.start = start
        self.title = title
        self.url = url
        self.image = image
        self.isListed = isListed
        self.source = source
    }
}

/// A chapter's picture: a chapters file links one, a media file's tag
/// carries the picture itself (ID3's APIC inside a CHAP frame).
public enum ChapterImage: Sendable, Equatable {
    case remote(URL)
    /// The encoded image (JPEG, PNG) and the MIME type the tag gives for it.
    case embedded(Data, mimeType: String)

    /// The address of a linked picture; nil for one carried in the file.
    public var url: URL? {
        if case .remote(let url) = self { url } else { nil }
    }
}
