/// `podcast:location`: what the podcast or episode is about, place-wise.
public struct FeedLocation: Sendable, Equatable, Codable {
    public var name: String
    /// A `geo:` URI (RFC 5870), e.g. `geo:30.2672,97.7431`.
    public var geo: String?
    /// An OpenStreetMap object reference, e.g. `R113314`.
    public var osm: String?

    public init(name: String, geo: String? = nil, osm: String? = nil) {
        self.name = name
        self.geo = geo
        self.osm = osm
    }
}
