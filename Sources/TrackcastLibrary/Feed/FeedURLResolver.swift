import Foundation

/// Turns the URL text of a feed into absolute URLs: trimmed (feeds wrap URLs
/// onto their own indented line), resolved against the feed's URL or the
/// nearest `xml:base`, spaces and non-ASCII percent-encoded by Foundation.
///
/// Only web addresses come out: a feed cannot point an enclosure, artwork,
/// chapters or anything else at a `file:` URL or another scheme (`ftp:`,
/// `data:`, `smb:`, `javascript:`). The one exception is a feed read from a
/// local file, which the user chose: its own `file:` neighbours may be named.
/// (`xml:base` goes through here too, so a web feed cannot make itself a
/// `file:` base.)
enum FeedURLResolver {
    static func resolve(_ text: String, against base: URL?) -> URL? {
        let trimmed = FeedText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        // Absolute http(s) links are the rule; skipping the base spares URL the resolution work.
        if trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://") {
            return URL(string: trimmed).flatMap(webOnly)
        }
        guard let url = URL(string: trimmed, relativeTo: base) else { return nil }
        let absolute = url.absoluteURL
        if absolute.isFileURL, base?.isFileURL == true { return absolute }
        return webOnly(absolute)
    }

    /// `url` if it is an absolute `http(s)` address with a host, else nil.
    static func webOnly(_ url: URL) -> URL? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { return nil }
        return url
    }
}
