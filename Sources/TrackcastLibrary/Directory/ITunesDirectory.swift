import Foundation

/// Apple's podcast directory, through the iTunes Search API
/// (`GET /search?media=podcast&term=…`, no key needed). Each result in
/// `results[]` names `collectionName`, `artistName`, `feedUrl`,
/// `artworkUrl600` (or `artworkUrl100`), `trackCount` and `primaryGenreName`;
/// results without a web feed address (Apple lists some shows it only
/// streams itself) are left out.
public struct ITunesDirectory: PodcastDirectory {
    public static let defaultSearchURL = URL(string: "https://itunes.apple.com/search")!

    public let name = "Apple Podcasts"
    private let client: HTTPClient
    private let searchURL: URL
    private let timeouts: HTTPTimeouts
    private let limit: Int

    /// - Parameter searchURL: the search endpoint; tests point it at a loopback server.
    public init(client: HTTPClient, searchURL: URL = Self.defaultSearchURL, timeouts: HTTPTimeouts? = nil,
                limit: Int = 50) {
        self.client = client
        self.searchURL = searchURL
        self.timeouts = timeouts ?? DirectoryRequest.timeouts
        self.limit = limit
    }

    public func search(_ term: String) async throws -> [DirectoryResult] {
        guard var components = URLComponents(url: searchURL, resolvingAgainstBaseURL: false) else {
            throw DirectorySearchError.badResponse("The search address is not valid.")
        }
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "media", value: "podcast"),
            URLQueryItem(name: "entity", value: "podcast"),
            URLQueryItem(name: "term", value: term),
            URLQueryItem(name: "limit", value: String(limit)),
        ]
        guard let url = components.url else { throw DirectorySearchError.badResponse("The search address is not valid.") }
        let answer = try await DirectoryRequest.jsonObject(url, client: client, timeouts: timeouts)
        guard let results = answer["results"] as? [Any] else {
            throw DirectorySearchError.badResponse("The answer has no results list.")
        }
        return DirectoryRequest.unique(results.compactMap { ($0 as? [String: Any]).flatMap(Self.result) })
    }

    static func result(_ entry: [String: Any]) -> DirectoryResult? {
        guard let title = DirectoryRequest.text(entry["collectionName"]) ?? DirectoryRequest.text(entry["trackName"]),
              let feed = DirectoryRequest.webURL(entry["feedUrl"]) else { return nil }
        return DirectoryResult(
            title: title, author: DirectoryRequest.text(entry["artistName"]), feedURL: feed,
            artworkURL: DirectoryRequest.webURL(entry["artworkUrl600"]) ?? DirectoryRequest.webURL(entry["artworkUrl100"]),
            episodeCount: DirectoryRequest.count(entry["trackCount"]),
            genre: DirectoryRequest.text(entry["primaryGenreName"]))
    }
}
