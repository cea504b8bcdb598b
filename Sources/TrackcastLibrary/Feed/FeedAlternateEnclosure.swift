import Foundation

/// `podcast:alternateEnclosure`: another rendition of the episode's media
/// (other bitrate, format, language, or a video version), with its sources.
public struct FeedAlternateEnclosure: Sendable, Equatable, Codable {
    /// `podcast:source`: one place the rendition can be fetched from.
    public struct Source: Sendable, Equatable, Codable {
        public var url: URL
        public var contentType: String?

        public init(url: URL, contentType: String? = nil) {
            self.url = url
            self.contentType = contentType
        }
    }

    public var mimeType: String?
    public var length: Int64?
    /// Bits per second.
    public var bitrate: Double?
    /// Video height in pixels.
    public var height: Int?
    public var language: String?
    public var title: String?
    public var rel: String?
    public var codecs: String?
    /// The publisher marks this rendition as the same as the main enclosure.
    public var isDefault: Bool
    public var sources: [Source]

    public init(
        mimeType: String? = nil,
        length: Int64? = nil,
        bitrate: Double? = nil,
        height: Int? = nil,
        language: String? = nil,
        title: String? = nil,
        rel: String? = nil,
        codecs: String? = nil,
        isDefault: Bool = false,
        sources: [Source] = []
    ) {
        self.mimeType = mimeType
        self.length = length
        self.bitrate = bitrate
        self.height = height
        self.language = language
        self.title = title
        self.rel = rel
        self.codecs = codecs
        self.isDefault = isDefault
        self.sources = sources
    }
}
