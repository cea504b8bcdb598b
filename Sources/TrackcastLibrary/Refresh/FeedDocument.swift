import Foundation

/// A feed as fetched, before parsing.
struct FeedDocument: Sendable {
    let data: Data
    /// Where it came from after redirects: relative links resolve against it.
    let url: URL
    let contentType: String?
    let etag: String?
    let lastModified: String?
    /// See `HTTPResponseHead.permanentURL`.
    let permanentURL: URL?

    var digest: FeedDocumentDigest { FeedDocumentDigest(url: url, contentType: contentType) }
}

/// What fetching a feed brought.
enum FeedFetch: Sendable {
    /// 304: unchanged since the validators sent.
    case notModified(etag: String?, lastModified: String?, permanentURL: URL?)
    case document(FeedDocument)
}
