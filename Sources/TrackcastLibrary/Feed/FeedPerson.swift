import Foundation

/// `podcast:person`: someone who takes part in the podcast or an episode.
public struct FeedPerson: Sendable, Equatable, Codable {
    public var name: String
    /// Lower-cased taxonomy role; the namespace's default is `host`.
    public var role: String
    /// Lower-cased taxonomy group; the namespace's default is `cast`.
    public var group: String
    public var href: URL? {
        get { storedHref?.url }
        set { storedHref = newValue.map(FeedLink.init) }
    }
    public var imageURL: URL? {
        get { storedImageURL?.url }
        set { storedImageURL = newValue.map(FeedLink.init) }
    }
    /// `href` and `imageURL`, made only when asked for if the feed wrote them verbatim (`FeedLink`).
    var storedHref: FeedLink?
    var storedImageURL: FeedLink?

    public init(name: String, role: String = "host", group: String = "cast", href: URL? = nil, imageURL: URL? = nil) {
        self.init(name: name, role: role, group: group, hrefLink: href.map(FeedLink.init), imageLink: imageURL.map(FeedLink.init))
    }

    init(name: String, role: String, group: String, hrefLink: FeedLink?, imageLink: FeedLink?) {
        self.name = name
        self.role = role
        self.group = group
        storedHref = hrefLink
        storedImageURL = imageLink
    }

    /// Encoded under the names and in the order of the fields: content hashes stay as they were.
    private enum CodingKeys: String, CodingKey {
        case name, role, group, storedHref = "href", storedImageURL = "imageURL"
    }
}
