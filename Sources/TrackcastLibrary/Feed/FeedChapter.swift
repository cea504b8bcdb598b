import Foundation

/// A chapter mark from Podlove Simple Chapters (`psc:chapter`).
public struct FeedChapter: Sendable, Equatable, Codable {
    /// Seconds from the start of the media, fractions kept.
    public var start: TimeInterval
    public var title: String
    public var url: URL? {
        get { storedURL?.url }
        set { storedURL = newValue.map(FeedLink.init) }
    }
    public var imageURL: URL? {
        get { storedImageURL?.url }
        set { storedImageURL = newValue.map(FeedLink.init) }
    }
    /// `url` and `imageURL`, made only when asked for if the feed wrote them verbatim (`FeedLink`).
    var storedURL: FeedLink?
    var storedImageURL: FeedLink?

    public init(start: TimeInterval, title: String, url: URL? = nil, imageURL: URL? = nil) {
        self.init(start: start, title: title, link: url.map(FeedLink.init), imageLink: imageURL.map(FeedLink.init))
    }

    init(start: TimeInterval, title: String, link: FeedLink?, imageLink: FeedLink?) {
        self.start = start
        self.title = title
        storedURL = link
        storedImageURL = imageLink
    }

    /// Encoded under the names and in the order of the fields: content hashes stay as they were.
    private enum CodingKeys: String, CodingKey {
        case start, title, storedURL = "url", storedImageURL = "imageURL"
    }
}
