import Foundation

/// People's links, resolved once per parse: a show names its hosts in every
/// episode (`podcast:person`), each time with the same page and photo, and
/// making a URL costs thousands of instructions (on the realistic corpus,
/// nine in ten person links had been seen before in the same feed). Other
/// links are mostly each episode's own, and hashing them would cost more
/// than the few repeats save.
struct FeedLinkCache {
    private var base: URL?
    private var resolved: [String: FeedLink?] = [:]
    /// Past this many, links are resolved without being kept: a feed of
    /// unique addresses does not grow a table as large as itself.
    private static let capacity = 4_096

    /// `FeedURLResolver.resolveLink(text, against: base)`, from the table when `text` was resolved before against the same base.
    mutating func resolve(_ text: String, against base: URL?) -> FeedLink? {
        if base != self.base {
            // An `xml:base` scope opened or closed: what was resolved against the old base no longer holds.
            resolved.removeAll()
            self.base = base
        }
        if let known = resolved[text] { return known }
        let url = FeedURLResolver.resolveLink(text, against: base)
        if resolved.count < Self.capacity { resolved[text] = url }
        return url
    }
}
