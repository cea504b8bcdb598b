import Foundation

/// Turns the URL text of a feed into absolute URLs: trimmed (feeds wrap URLs
/// onto their own indented line), resolved against the feed's URL or the
/// nearest `xml:base`, spaces and non-ASCII percent-encoded by Foundation.
enum FeedURLResolver {
    static func resolve(_ text: String, against base: URL?) -> URL? {
        let trimmed = FeedText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        // Absolute http(s) links are the rule; skipping the base spares URL the resolution work.
        if trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://") {
            return URL(string: trimmed)
        }
        guard let url = URL(string: trimmed, relativeTo: base) else { return nil }
        let absolute = url.absoluteURL
        return absolute.scheme == nil ? nil : absolute
    }
}
