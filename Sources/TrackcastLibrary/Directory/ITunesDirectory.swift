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
        return try DirectoryAnswer.iTunesResults(
            try await DirectoryRequest.jsonObject(url, client: client, timeouts: timeouts))
    }
}
