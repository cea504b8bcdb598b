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
        // The service says "true" or "false" as text (and true as JSON now and then).
        if (answer["status"] as? String)?.lowercased() == "false" || (answer["status"] as? Bool) == false {
            throw DirectorySearchError.badResponse(DirectoryRequest.text(answer["description"]) ?? "The service refused the search.")
        }
        guard let feeds = answer["feeds"] as? [Any] else {
            throw DirectorySearchError.badResponse("The answer has no feeds list.")
        }
        return DirectoryRequest.unique(feeds.compactMap { ($0 as? [String: Any]).flatMap(Self.result) })
    }

    static func result(_ entry: [String: Any]) -> DirectoryResult? {
        guard let title = DirectoryRequest.text(entry["title"]), let feed = DirectoryRequest.webURL(entry["url"]) else {
            return nil
        }
        // Categories come as {"104": "Tech", "105": "News"}: the lowest id first.
        let categories = (entry["categories"] as? [String: Any]) ?? [:]
        let genre = categories.sorted { (Int($0.key) ?? .max, $0.key) < (Int($1.key) ?? .max, $1.key) }
            .lazy.compactMap { DirectoryRequest.text($0.value) }.first
        return DirectoryResult(
            title: title, author: DirectoryRequest.text(entry["author"]) ?? DirectoryRequest.text(entry["ownerName"]),
            feedURL: feed,
            artworkURL: DirectoryRequest.webURL(entry["artwork"]) ?? DirectoryRequest.webURL(entry["image"]),
            episodeCount: DirectoryRequest.count(entry["episodeCount"]), genre: genre)
    }
}
