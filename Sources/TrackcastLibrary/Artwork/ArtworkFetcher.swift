import Foundation

/// Downloads show artwork once into a cache folder and hands back the file.
///
/// Through `HTTPClient`, with a size cap and timeouts, rather than
/// URLSession's download task: that one, on Linux, leaves a temporary file
/// in `/tmp` for every download that fails or is refused, and a library
/// whose feeds name dead artwork addresses would add some on every start.
public struct ArtworkFetcher: Sendable {
    public enum FetchError: Error, Equatable, LocalizedError {
        case status(Int)

        public var errorDescription: String? {
            switch self {
            case .status(let status): "The server answered \(status) for the artwork."
            }
        }
    }

    private let client: HTTPClient
    private let cache: URL
    private static let timeouts = HTTPTimeouts(connect: .seconds(15), total: .seconds(60))
    /// Podcast artwork is at most 3000×3000 pixels by Apple's rules; a JPEG of
    /// that is a few megabytes.
    public static let maxBytes: Int64 = 20_000_000

    public init(client: HTTPClient, cacheDirectory: URL) {
        self.client = client
        self.cache = cacheDirectory
    }

    /// The image at `url` as a local file: the address's own file, the cached
    /// copy, or a fresh download, written whole under its final name or not at all.
    public func file(for url: URL) async throws -> URL {
        if let file = cachedFile(for: url) { return file }
        let file = cacheFile(for: url)
        let body = ResponseBodyBuffer(limit: Self.maxBytes)
        let head = try await client.get(url, timeouts: Self.timeouts, receiver: body)
        guard (200..<300).contains(head.status) else { throw FetchError.status(head.status) }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try body.data.write(to: file, options: .atomic)
        return file
    }

    /// The image at `url` if it is a local file or already cached, without
    /// the network: for answers that cannot wait for a download (GNOME
    /// Shell's search results).
    public func cachedFile(for url: URL) -> URL? {
        if url.isFileURL { return url }
        let file = cacheFile(for: url)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    private func cacheFile(for url: URL) -> URL {
        var hash = FNV1a()  // the same name for the same address in every run
        hash.add(url.absoluteString.utf8)
        return cache.appendingPathComponent(String(hash.value, radix: 16))
    }
}
