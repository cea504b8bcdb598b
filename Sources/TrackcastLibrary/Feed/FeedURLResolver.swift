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
        resolveLink(text, against: base)?.url
    }

    /// `resolve`, keeping an address `URL(string:)` takes as it stands as its
    /// text (`FeedLink`): its URL is made only if asked for.
    static func resolveLink(_ text: String, against base: URL?) -> FeedLink? {
        let trimmed = FeedText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        // Absolute http(s) links are the rule; skipping the base spares URL the resolution work,
        // and a plain host spares asking URL for the host, which parses the string again.
        switch absoluteWebAddress(trimmed) {
        case .verbatim: return FeedLink(verbatimWebAddress: trimmed)
        case .plainHost: return URL(string: trimmed).map(FeedLink.init)
        case .otherHost: return URL(string: trimmed).flatMap(webOnly).map(FeedLink.init)
        case nil: break
        }
        guard let url = URL(string: trimmed, relativeTo: base) else { return nil }
        let absolute = url.absoluteURL
        if absolute.isFileURL, base?.isFileURL == true { return FeedLink(absolute) }
        return webOnly(absolute).map(FeedLink.init)
    }

    /// `url` if it is an absolute `http(s)` address with a host, else nil.
    static func webOnly(_ url: URL) -> URL? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { return nil }
        return url
    }

    enum AbsoluteWebAddress {
        /// A plain host without a port, then nothing but characters RFC 3986
        /// allows where they stand (unreserved, sub-delimiters, `:`, `@`, `/`,
        /// `?` past the path, one `#`, `%` before two hex digits): Foundation's
        /// parser finds every component valid, encodes nothing, and the URL's
        /// `absoluteString` is the address as written.
        case verbatim
        /// After the scheme, a host of letters, digits, dots and hyphens, at least
        /// one, then at most a port of digits before the path, query or fragment:
        /// an address whose host no parser can find empty.
        case plainHost
        /// Anything else (user info, IPv6, percent-escapes, non-ASCII): for `webOnly` to judge.
        case otherHost
    }

    /// What follows `http://` or `https://` (as written, lower case), in one
    /// pass over the bytes; nil for an address that starts otherwise.
    static func absoluteWebAddress(_ address: String) -> AbsoluteWebAddress? {
        var address = address
        return address.withUTF8 { bytes in
            let hostStart: Int
            if startsWith(bytes, "https://") {
                hostStart = 8
            } else if startsWith(bytes, "http://") {
                hostStart = 7
            } else {
                return nil
            }
            var i = hostStart
            while i < bytes.count, isHostByte(bytes[i]) { i += 1 }
            guard i > hostStart else { return .otherHost }
            if isVerbatimAfterHost(bytes[i...]) { return .verbatim }
            if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                i += 1
                while i < bytes.count, bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") { i += 1 }
            }
            guard i == bytes.count || bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "?")
                    || bytes[i] == UInt8(ascii: "#") else { return .otherHost }
            return .plainHost
        }
    }

    /// Whether what follows a plain host is empty or a path, query and
    /// fragment of only the characters RFC 3986 allows in each.
    private static func isVerbatimAfterHost(_ rest: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = rest.first else { return true }
        guard first == UInt8(ascii: "/") || first == UInt8(ascii: "?") || first == UInt8(ascii: "#") else { return false }
        var inFragment = false
        var i = rest.startIndex
        while i < rest.endIndex {
            let byte = rest[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < rest.endIndex, isHexDigit(rest[i + 1]), isHexDigit(rest[i + 2]) else { return false }
                i += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                // One fragment; a second `#` is not allowed in it.
                guard !inFragment else { return false }
                inFragment = true
            } else if !isPathQueryOrFragmentByte(byte) {
                return false
            }
            i += 1
        }
        return true
    }

    /// RFC 3986's pchar less `%`, and `/` and `?`: what a path (`?` ends it),
    /// a query and a fragment may hold.
    private static func isPathQueryOrFragmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
    }

    private static func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        for k in 0..<count where bytes[k] != literal.utf8Start[k] { return false }
        return true
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }
}
