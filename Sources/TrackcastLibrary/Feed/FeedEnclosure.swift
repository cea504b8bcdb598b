import Foundation

/// A media file of an episode: RSS `enclosure`, Media RSS `media:content`, Atom `link rel="enclosure"`.
public struct FeedEnclosure: Sendable, Equatable, Codable {
    public var url: URL
    /// `nil` when the feed gives none or something that is not a MIME type;
    /// the downloader then goes by the server's Content-Type.
    public var mimeType: String?
    /// Bytes; `nil` when missing, zero or unreadable (feeds use 0 for "unknown").
    public var length: Int64?

    public init(url: URL, mimeType: String? = nil, length: Int64? = nil) {
        self.url = url
        self.mimeType = mimeType
        self.length = length
    }
}
