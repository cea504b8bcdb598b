import Foundation

/// How the library recognises an episode it has seen before.
///
/// In order of preference:
/// 1. the feed's `guid` (Atom `id`), verbatim: the publisher's own promise;
/// 2. else the first enclosure's URL: the thing feeds without guids change least;
/// 3. else the title together with the publication date (which may be missing).
///
/// So a re-run published with the same title but a new guid is a new episode,
/// while an episode keeps its identity through edits of its title, date or media
/// file as long as its guid stays. The parser drops items that have none of the
/// three (nothing to show, nothing to play, nothing to recognise them by).
public enum FeedEpisodeIdentity: Hashable, Sendable, Codable {
    case guid(String)
    case enclosureURL(URL)
    case titleAndDate(title: String, published: Date?)

    init(guid: String?, enclosureURL: URL?, title: String?, published: Date?) {
        if let guid, !guid.isEmpty {
            self = .guid(guid)
        } else if let enclosureURL {
            self = .enclosureURL(enclosureURL)
        } else {
            self = .titleAndDate(title: title ?? "", published: published)
        }
    }

    /// One string per identity, for a database column or a dictionary key.
    /// The kind prefix keeps a guid that happens to be a URL apart from an
    /// enclosure URL. The format is stored by the library: do not change it.
    public var key: String {
        switch self {
        case .guid(let guid):
            return "guid:" + guid
        case .enclosureURL(let url):
            return "url:" + url.absoluteString
        case .titleAndDate(let title, let published):
            let date = published?.unixSeconds.map(String.init) ?? "-"
            return "title:" + date + ":" + title
        }
    }
}
