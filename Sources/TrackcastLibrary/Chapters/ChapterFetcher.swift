import Foundation

/// Fetches Podcasting 2.0 chapters files and keeps them on disk, so an
/// episode's chapters are there again without the network.
public struct ChapterFetcher: Sendable {
    public enum FetchError: Error, Equatable, LocalizedError {
        case status(Int)

        public var errorDescription: String? {
            switch self {
            case .status(let status): "The server answered \(status) for the chapters file."
            }
        }
    }

    private let client: HTTPClient
    /// One file per episode: `<episode id>.json`.
    private let cache: URL
    private static let timeouts = HTTPTimeouts(connect: .seconds(15), total: .seconds(60))
    private static let maxBytes: Int64 = 2_000_000

    public init(client: HTTPClient, cacheDirectory: URL) {
        self.client = client
        self.cache = cacheDirectory
    }

    /// The chapters at `url` for `episode`: from the cache if it has them,
    /// else fetched, parsed and then cached (a file that does not parse is not).
    public func chapters(at url: URL, for episode: EpisodeID) async throws -> [Chapter] {
        let file = cache.appendingPathComponent("\(episode.rawValue).json")
        if let cached = try? Data(contentsOf: file), let chapters = try? PodcastChaptersFile.parse(cached, relativeTo: url) {
            return chapters
        }
        let body = ResponseBodyBuffer(limit: Self.maxBytes)
        let head = try await client.get(url, timeouts: Self.timeouts, receiver: body)
        guard (200..<300).contains(head.status) else { throw FetchError.status(head.status) }
        let data = body.data
        let chapters = try PodcastChaptersFile.parse(data, relativeTo: head.url)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
        return chapters
    }
}
