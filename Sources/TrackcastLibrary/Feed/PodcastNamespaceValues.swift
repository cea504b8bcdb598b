import Foundation

/// Podcasting 2.0 tags that mean the same at podcast and at episode level,
/// built from an element's text and attributes. Each returns `nil` when a
/// required part (the URL, the name) is missing.
enum PodcastNamespaceValues {
    static func funding(text: String, attributes: XMLAttributeValues, base: URL?) -> FeedFunding? {
        guard let url = attributes["url"].flatMap({ FeedURLResolver.resolve($0, against: base) }) else { return nil }
        return FeedFunding(url: url, title: FeedText.line(text))
    }

    static func license(text: String, attributes: XMLAttributeValues, base: URL?) -> FeedLicense? {
        guard let name = FeedText.line(text) else { return nil }
        return FeedLicense(name: name, url: attributes["url"].flatMap { FeedURLResolver.resolve($0, against: base) })
    }

    static func location(text: String, attributes: XMLAttributeValues) -> FeedLocation? {
        guard let name = FeedText.line(text) else { return nil }
        return FeedLocation(name: name, geo: attributes["geo"].flatMap(FeedText.nonEmpty), osm: attributes["osm"].flatMap(FeedText.nonEmpty))
    }

    /// Role and group are lower-cased and default to host and cast, as the namespace specifies.
    static func person(text: String, attributes: XMLAttributeValues, base: URL?, links: inout FeedLinkCache) -> FeedPerson? {
        guard let name = FeedText.line(text) else { return nil }
        return FeedPerson(
            name: name,
            role: attributes["role"].flatMap(FeedText.nonEmpty)?.lowercased() ?? "host",
            group: attributes["group"].flatMap(FeedText.nonEmpty)?.lowercased() ?? "cast",
            hrefLink: attributes["href"].flatMap { links.resolve($0, against: base) },
            imageLink: attributes["img"].flatMap { links.resolve($0, against: base) }
        )
    }

    static func trailer(text: String, attributes: XMLAttributeValues, base: URL?) -> FeedTrailer? {
        guard let url = attributes["url"].flatMap({ FeedURLResolver.resolve($0, against: base) }) else { return nil }
        return FeedTrailer(
            title: FeedText.line(text),
            url: url,
            published: attributes["pubdate"].flatMap(FeedDateParser.parse),
            mimeType: FeedValueParser.mimeType(attributes["type"]),
            length: FeedValueParser.length(attributes["length"]),
            season: attributes["season"].flatMap(FeedValueParser.positiveInteger)
        )
    }
}
