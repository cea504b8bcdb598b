import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TrackcastLibrary

/// Fetches a feed and parses it, all off the main thread.
struct FeedFetcher: Sendable {
    struct Fetched: Sendable {
        let feed: Feed
        let url: URL
        let etag: String?
        let lastModified: String?
    }

    enum FetchError: Error {
        case httpStatus(Int)
    }

    /// The feed address a user typed or a link carried: `feed:`, `podcast:`
    /// and `itms-podcast:` links become the web addresses they stand for; a
    /// bare host gets https.
    static func feedURL(from text: String) -> URL? {
        var address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for scheme in ["feed:", "podcast:", "itms-podcast:", "itmss:"] where address.lowercased().hasPrefix(scheme) {
            address = String(address.dropFirst(scheme.count))
            if address.hasPrefix("//") { address = "https:" + address }
        }
        if !address.contains("://") { address = "https://" + address }
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(),
              ["http", "https", "file"].contains(scheme), url.host != nil || url.isFileURL else { return nil }
        return url
    }

    func fetch(_ url: URL) async throws -> Fetched {
        let data: Data
        var contentType: String?
        var etag: String?
        var lastModified: String?
        if url.isFileURL {
            data = try await Task.detached { try Data(contentsOf: url) }.value
        } else {
            var request = URLRequest(url: url, timeoutInterval: 30)
            request.setValue("Trackcast", forHTTPHeaderField: "User-Agent")
            let (body, response) = try await URLSession.shared.data(for: request)
            if let http = response as? HTTPURLResponse {
                guard (200..<300).contains(http.statusCode) else { throw FetchError.httpStatus(http.statusCode) }
                contentType = http.value(forHTTPHeaderField: "Content-Type")
                etag = http.value(forHTTPHeaderField: "ETag")
                lastModified = http.value(forHTTPHeaderField: "Last-Modified")
            }
            data = body
        }
        let feed = try await Task.detached { [contentType] in
            try FeedParser().parse(data, url: url, httpContentType: contentType)
        }.value
        return Fetched(feed: feed, url: url, etag: etag, lastModified: lastModified)
    }
}
