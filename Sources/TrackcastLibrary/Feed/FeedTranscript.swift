import Foundation

/// `podcast:transcript`: an episode may list several (formats, languages).
public struct FeedTranscript: Sendable, Equatable, Codable {
    public var url: URL {
        get { storedURL.url }
        set { storedURL = FeedLink(newValue) }
    }
    /// `url`, made only when asked for if the feed wrote it verbatim (`FeedLink`).
    var storedURL: FeedLink
    /// MIME type, e.g. `text/vtt`, `application/x-subrip`, `application/json`.
    public var type: String?
    public var language: String?
    /// `captions` when the transcript is timed for display as captions.
    public var rel: String?

    public init(url: URL, type: String? = nil, language: String? = nil, rel: String? = nil) {
        self.init(link: FeedLink(url), type: type, language: language, rel: rel)
    }

    init(link: FeedLink, type: String?, language: String?, rel: String?) {
        storedURL = link
        self.type = type
        self.language = language
        self.rel = rel
    }

    /// Encoded under the names and in the order of the fields: content hashes stay as they were.
    private enum CodingKeys: String, CodingKey {
        case storedURL = "url", type, language, rel
    }
}
