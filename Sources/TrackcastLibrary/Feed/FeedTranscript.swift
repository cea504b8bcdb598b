import Foundation

/// `podcast:transcript`: an episode may list several (formats, languages).
public struct FeedTranscript: Sendable, Equatable, Codable {
    public var url: URL
    /// MIME type, e.g. `text/vtt`, `application/x-subrip`, `application/json`.
    public var type: String?
    public var language: String?
    /// `captions` when the transcript is timed for display as captions.
    public var rel: String?

    public init(url: URL, type: String? = nil, language: String? = nil, rel: String? = nil) {
        self.url = url
        self.type = type
        self.language = language
        self.rel = rel
    }
}
