import Foundation

/// Fetches one feed: a conditional GET over HTTP(S), or a local file.
public struct FeedFetcher: Sendable {
    let client: HTTPClient
    let options: RefreshOptions

    init(client: HTTPClient, options: RefreshOptions) {
        self.client = client
        self.options = options
    }

    /// A feed's bytes, for reading it without a library (`trackcast feed
    /// parse URL`): the refresh's own fetch, with its limits, and its
    /// failures as `RefreshFailure`.
    public static func download(_ url: URL, client: HTTPClient, options: RefreshOptions = RefreshOptions())
        async throws -> (data: Data, url: URL, contentType: String?) {
        guard case .document(let document) = try await FeedFetcher(client: client, options: options).fetch(url) else {
            // Nothing was sent to be "not modified" against.
            throw RefreshFailure.httpStatus(304)
        }
        return (document.data, document.url, document.contentType)
    }

    /// Throws `RefreshFailure`, already classified, or `CancellationError`.
    func fetch(_ url: URL, etag: String? = nil, lastModified: String? = nil) async throws -> FeedFetch {
        if url.isFileURL { return try await fetchFile(url, lastModified: lastModified) }
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        // Uncompressed, so that the size limit counts the bytes that arrive
        // (see ResponseBodyBuffer's plainOnly): a gzip bomb, or a stream
        // that inflates to nothing, is refused at its head.
        headers["Accept-Encoding"] = "identity"
        let body = ResponseBodyBuffer(limit: options.maxFeedBytes, plainOnly: true)
        let head: HTTPResponseHead
        do {
            head = try await client.get(url, headers: headers, timeouts: options.timeouts, receiver: body)
        } catch let refused as ResponseBodyBuffer.UnrequestedEncoding {
            throw RefreshFailure(kind: .other,
                                 message: "The server compressed the feed (\(refused.encoding)) although asked not to.")
        } catch HTTPError.cancelled {
            throw CancellationError()
        } catch let error as HTTPError {
            throw RefreshFailure(error)
        }
        switch head.status {
        case 304:
            return .notModified(etag: head[header: "etag"], lastModified: head[header: "last-modified"],
                                permanentURL: head.permanentURL)
        case 200..<300:
            return .document(FeedDocument(data: body.data, url: head.url, contentType: head[header: "content-type"],
                                          etag: head[header: "etag"], lastModified: head[header: "last-modified"],
                                          permanentURL: head.permanentURL))
        default:
            throw RefreshFailure.httpStatus(head.status)
        }
    }

    /// A local feed (subscribed from a file): its modification time stands in
    /// for Last-Modified, so an unchanged file is not parsed again.
    private func fetchFile(_ url: URL, lastModified: String?) async throws -> FeedFetch {
        let limit = options.maxFeedBytes
        return try await Task.detached {
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            } catch {
                throw RefreshFailure(kind: .unreadableFile, message: "The file \(url.path) cannot be read.")
            }
            let modified = (attributes[.modificationDate] as? Date).map { String($0.timeIntervalSince1970) }
            if let modified, modified == lastModified {
                return .notModified(etag: nil, lastModified: modified, permanentURL: nil)
            }
            if let size = attributes[.size] as? Int64, size > limit { throw RefreshFailure(HTTPError.tooLarge(limit: limit)) }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw RefreshFailure(kind: .unreadableFile, message: "The file \(url.path) cannot be read.")
            }
            return .document(FeedDocument(data: data, url: url, contentType: nil, etag: nil, lastModified: modified,
                                          permanentURL: nil))
        }.value
    }
}
