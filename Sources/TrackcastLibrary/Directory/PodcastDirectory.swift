import Foundation

/// A searchable catalogue of podcasts (Apple's, Podcast Index). The answers
/// come from a web service, so they are untrusted text: only web feed
/// addresses come through, and titles are for showing literally.
public protocol PodcastDirectory: Sendable {
    /// The service's name, shown when there is a choice of directories.
    var name: String { get }
    /// Shows matching `term`, in the directory's order. Throws
    /// `DirectorySearchError` or `CancellationError`.
    func search(_ term: String) async throws -> [DirectoryResult]
}

/// One show a directory found.
public struct DirectoryResult: Sendable, Equatable, Identifiable {
    public let title: String
    public let author: String?
    /// Always `http` or `https`.
    public let feedURL: URL
    /// Always `http` or `https`.
    public let artworkURL: URL?
    public let episodeCount: Int?
    public let genre: String?

    public var id: URL { feedURL }

    public init(title: String, author: String?, feedURL: URL, artworkURL: URL?, episodeCount: Int?, genre: String?) {
        self.title = title
        self.author = author
        self.feedURL = feedURL
        self.artworkURL = artworkURL
        self.episodeCount = episodeCount
        self.genre = genre
    }
}

/// Why a search failed, sorted as feed failures are: what a person can act on.
public enum DirectorySearchError: Error, Sendable, Equatable {
    /// No connection: no network, the name does not resolve, refused, reset.
    case offline(String)
    case timeout
    /// The service answered with an error status (401 for a wrong key).
    case httpStatus(Int)
    /// The answer was not the JSON the service documents, or too large.
    case badResponse(String)
}

/// The request and reading both directories share.
enum DirectoryRequest {
    /// Results lists are small; a megabyte is far more than 200 shows take.
    static let maxResponseBytes: Int64 = 4 * 1_048_576
    static let timeouts = HTTPTimeouts(connect: .seconds(15), total: .seconds(30))

    /// GETs `url` and returns the top-level JSON object.
    static func jsonObject(_ url: URL, headers: [String: String] = [:], client: HTTPClient,
                           timeouts: HTTPTimeouts) async throws -> [String: Any] {
        let body = ResponseBodyBuffer(limit: maxResponseBytes)
        let head: HTTPResponseHead
        do {
            head = try await client.get(url, headers: headers.merging(["Accept": "application/json"]) { old, _ in old },
                                        timeouts: timeouts, receiver: body)
        } catch let error as HTTPError {
            throw classify(error)
        }
        guard (200..<300).contains(head.status) else { throw DirectorySearchError.httpStatus(head.status) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body.data)
        } catch {
            throw DirectorySearchError.badResponse("The answer is not JSON.")
        }
        guard let dictionary = object as? [String: Any] else {
            throw DirectorySearchError.badResponse("The answer is not a JSON object.")
        }
        return dictionary
    }

    private static func classify(_ error: HTTPError) -> any Error {
        switch error {
        case .network(let message): DirectorySearchError.offline(message)
        case .timeout: DirectorySearchError.timeout
        case .tooManyRedirects(let limit): DirectorySearchError.badResponse("The service redirected more than \(limit) times.")
        case .tooLarge: DirectorySearchError.badResponse("The answer is too large.")
        case .cancelled: CancellationError()
        }
    }

    /// A feed or artwork address from the answer, if it is a web address.
    static func webURL(_ value: Any?) -> URL? {
        guard let text = value as? String else { return nil }
        return FeedURLResolver.resolve(text, against: nil)
    }

    /// Text from the answer, trimmed; nil when missing or empty.
    static func text(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let trimmed = FeedText.trimmed(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A count the service may send as a number or, now and then, as text.
    static func count(_ value: Any?) -> Int? {
        switch value {
        case let number as NSNumber: number.intValue >= 0 ? number.intValue : nil
        case let text as String: Int(text).flatMap { $0 >= 0 ? $0 : nil }
        default: nil
        }
    }

    /// The first result for each feed: a directory may list a show twice.
    static func unique(_ results: [DirectoryResult]) -> [DirectoryResult] {
        var seen = Set<URL>()
        return results.filter { seen.insert($0.feedURL).inserted }
    }
}
