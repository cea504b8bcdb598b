import Foundation

/// A way to support the podcast: `podcast:funding`, or the older `atom:link rel="payment"` (Flattr).
public struct FeedFunding: Sendable, Equatable, Codable {
    public var url: URL
    public var title: String?

    public init(url: URL, title: String? = nil) {
        self.url = url
        self.title = title
    }
}
