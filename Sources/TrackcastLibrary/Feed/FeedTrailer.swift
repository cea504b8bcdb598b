import Foundation

/// `podcast:trailer`: a channel-level trailer, which need not be one of the feed's items.
public struct FeedTrailer: Sendable, Equatable, Codable {
    public var title: String?
    public var url: URL
    public var published: Date?
    public var mimeType: String?
    public var length: Int64?
    /// The season this trailer announces, if any.
    public var season: Int?

    public init(title: String? = nil, url: URL, published: Date? = nil, mimeType: String? = nil, length: Int64? = nil, season: Int? = nil) {
        self.title = title
        self.url = url
        self.published = published
        self.mimeType = mimeType
        self.length = length
        self.season = season
    }
}
