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

/// The request both directories make.
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
        return try DirectoryAnswer.object(body.data)
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
}
