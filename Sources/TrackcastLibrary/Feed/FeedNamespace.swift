/// The XML vocabularies the parser reads, recognised by namespace URI, never by
/// prefix: feeds declare `xmlns:it=`, `xmlns:i=`, or put iTunes elements in a
/// default namespace. Only an undeclared prefix (which many feeds use, e.g.
/// `itunes:` without `xmlns:itunes`) falls back to the conventional prefix name,
/// as podcastparser does.
enum FeedNamespace: Equatable {
    /// No namespace: RSS itself.
    case none
    case atom
    case itunes
    case media
    case content
    case podloveChapters
    case podcastIndex
    case dublinCore
    case unknown

    /// Matches the URI loosely: case, scheme, `www.` and a trailing slash vary
    /// between feeds ("http://www.itunes.com/DTDs/Podcast-1.0.dtd").
    init(uri: String) {
        var key = FeedText.trimmed(uri).lowercased()
        for scheme in ["https://", "http://"] where key.hasPrefix(scheme) {
            key.removeFirst(scheme.count)
        }
        if key.hasPrefix("www.") { key.removeFirst(4) }
        while key.hasSuffix("/") { key.removeLast() }
        switch key {
        case "w3.org/2005/atom", "purl.org/atom/ns#": self = .atom
        case "itunes.com/dtds/podcast-1.0.dtd": self = .itunes
        case "search.yahoo.com/mrss": self = .media
        case "purl.org/rss/1.0/modules/content": self = .content
        case "podlove.org/simple-chapters": self = .podloveChapters
        case "podcastindex.org/namespace/1.0",
             "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
            self = .podcastIndex
        case "purl.org/dc/elements/1.1": self = .dublinCore
        case "backend.userland.com/rss2", "": self = .none
        default: self = .unknown
        }
    }

    init(undeclaredPrefix prefix: Substring) {
        switch prefix.lowercased() {
        case "atom": self = .atom
        case "itunes": self = .itunes
        case "media": self = .media
        case "content": self = .content
        case "psc": self = .podloveChapters
        case "podcast": self = .podcastIndex
        case "dc": self = .dublinCore
        default: self = .unknown
        }
    }

    /// Inside an Atom feed, elements without a namespace are taken as Atom's:
    /// Atom without its namespace is invalid, but seen.
    var isAtomLike: Bool { self == .atom || self == .none }
}
