import Foundation

/// `podcast:person`: someone who takes part in the podcast or an episode.
public struct FeedPerson: Sendable, Equatable, Codable {
    public var name: String
    /// Lower-cased taxonomy role; the namespace's default is `host`.
    public var role: String
    /// Lower-cased taxonomy group; the namespace's default is `cast`.
    public var group: String
    public var href: URL?
    public var imageURL: URL?

    public init(name: String, role: String = "host", group: String = "cast", href: URL? = nil, imageURL: URL? = nil) {
        self.name = name
        self.role = role
        self.group = group
        self.href = href
        self.imageURL = imageURL
    }
}
