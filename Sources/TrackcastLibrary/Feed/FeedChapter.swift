import Foundation

/// A chapter mark from Podlove Simple Chapters (`psc:chapter`).
public struct FeedChapter: Sendable, Equatable, Codable {
    /// Seconds from the start of the media, fractions kept.
    public var start: TimeInterval
    public var title: String
    public var url: URL?
    public var imageURL: URL?

    public init(start: TimeInterval, title: String, url: URL? = nil, imageURL: URL? = nil) {
        self.start = start
        self.title = title
        self.url = url
        self.imageURL = imageURL
    }
}
