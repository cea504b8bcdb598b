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
            guard let url = URL(string: trimmed) else { return nil }
            // The scheme is http(s) as written; asking URL for the host parses the string again.
            return hasPlainHost(trimmed) ? url : webOnly(url)
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

    /// Whether what follows `scheme://` is a host of letters, digits, dots and
    /// hyphens, at least one, then at most a port of digits before the path,
    /// query or fragment: an address whose host no parser can find empty. Anything
    /// else (user info, IPv6, percent-escapes, non-ASCII) is for `webOnly` to judge.
    static func hasPlainHost(_ address: String) -> Bool {
        var address = address
        return address.withUTF8 { bytes in
            guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash + 1 < bytes.count,
                  bytes[slash + 1] == UInt8(ascii: "/") else { return false }
            var hostLength = 0
            var inPort = false
            for byte in bytes[(slash + 2)...] {
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                    return hostLength > 0
                case UInt8(ascii: ":") where !inPort:
                    inPort = true
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if !inPort { hostLength += 1 }
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "."), UInt8(ascii: "-"):
                    guard !inPort else { return false }
                    hostLength += 1
                default:
                    return false
                }
            }
            return hostLength > 0
        }
    }
}
