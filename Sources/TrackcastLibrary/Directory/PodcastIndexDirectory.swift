import Foundation

/// Podcast Index (`GET /api/1.0/search/byterm?q=…`). Every request is
/// signed: `X-Auth-Key` (the key), `X-Auth-Date` (Unix seconds now) and
/// `Authorization`, the SHA-1 in hex of key, secret and that date joined;
/// the User-Agent is the client's. Each feed in `feeds[]` names `title`,
/// `author`, `url`, `artwork` (or `image`), `episodeCount` and `categories`
/// (an object of id to name).
public struct PodcastIndexDirectory: PodcastDirectory {
    public static let defaultAPIURL = URL(string: "https://api.podcastindex.org/api/1.0/")!

    public let name = "Podcast Index"
    private let client: HTTPClient
    private let key: String
    private let secret: String
    private let apiURL: URL
    private let timeouts: HTTPTimeouts
    private let limit: Int
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - apiURL: the API's base, ending in `/`; tests point it at a loopback server.
    ///   - now: the clock the signature's date comes from.
    public init(client: HTTPClient, key: String, secret: String, apiURL: URL = Self.defaultAPIURL,
                timeouts: HTTPTimeouts? = nil, limit: Int = 50, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.key = key
        self.secret = secret
        self.apiURL = apiURL
        self.timeouts = timeouts ?? DirectoryRequest.timeouts
        self.limit = limit
        self.now = now
    }

    /// The signature headers for a request made at `date`.
    public static func authenticationHeaders(key: String, secret: String, date: Date) -> [String: String] {
        let seconds = String(Int64(date.timeIntervalSince1970))
        return ["X-Auth-Key": key, "X-Auth-Date": seconds,
                "Authorization": SHA1.hexDigest(Array((key + secret + seconds).utf8))]
    }

    public func search(_ term: String) async throws -> [DirectoryResult] {
        guard var components = URLComponents(url: apiURL.appendingPathComponent("search/byterm"),
                                             resolvingAgainstBaseURL: false) else {
            throw DirectorySearchError.badResponse("The search address is not valid.")
        }
        components.queryItems = [URLQueryItem(name: "q", value: term), URLQueryItem(name: "max", value: String(limit))]
        guard let url = components.url else { throw DirectorySearchError.badResponse("The search address is not valid.") }
        let answer = try await DirectoryRequest.jsonObject(
            url, headers: Self.authenticationHeaders(key: key, secret: secret, date: now()), client: client,
            timeouts: timeouts)
        return try DirectoryAnswer.podcastIndexResults(answer)
    }
}
