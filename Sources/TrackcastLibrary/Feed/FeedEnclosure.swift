import Foundation

/// A media file of an episode: RSS `enclosure`, Media RSS `media:content`, Atom `link rel="enclosure"`.
public struct FeedEnclosure: Sendable, Equatable, Codable {
    public var url: URL {
        get { storedURL.url }
        set { storedURL = FeedLink(newValue) }
    }
    /// `url`, made only when asked for if the feed wrote it verbatim (`FeedLink`).
    var storedURL: FeedLink
    /// `nil` when the feed gives none or something that is not a MIME type;
    /// the downloader then goes by the server's Content-Type.
    public var mimeType: String?
    /// Bytes; `nil` when missing, zero or unreadable (feeds use 0 for "unknown").
    public var length: Int64?

    public init(url: URL, mimeType: String? = nil, length: Int64? = nil) {
        self.init(link: FeedLink(url), mimeType: mimeType, length: length)
    }

    init(link: FeedLink, mimeType: String?, length: Int64?) {
        storedURL = link
        self.mimeType = mimeType
        self.length = length
    }

    /// Encoded under the names and in the order of the fields: content hashes stay as they were.
    private enum CodingKeys: String, CodingKey {
        case storedURL = "url", mimeType, length
    }
}
