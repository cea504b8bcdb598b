import Foundation

/// The status and headers of the response a transfer ended with (after any
/// redirects it followed), and the redirects that led there.
public struct HTTPResponseHead: Sendable, Equatable {
    public let status: Int
    /// Where the response came from: the request's URL after redirects.
    public let url: URL
    /// Header names lowercased.
    public let headers: [String: String]
    public let redirects: [RedirectHop]

    public init(status: Int, url: URL, headers: [String: String], redirects: [RedirectHop] = []) {
        self.status = status
        self.url = url
        self.headers = headers
        self.redirects = redirects
    }

    public subscript(header name: String) -> String? { headers[name.lowercased()] }

    /// Content-Length, when the server sent one and the body is not content-encoded
    /// (the length then counts compressed bytes, not the ones delivered).
    public var contentLength: Int64? {
        guard self[header: "content-encoding"].map({ $0.lowercased() == "identity" }) ?? true else { return nil }
        return self[header: "content-length"].flatMap(ByteCountHeaders.length)
    }

    /// Where the resource now lives for good: the target of the last hop of
    /// the unbroken run of permanent redirects (301, 308) the chain starts
    /// with. A temporary hop ends the run, since what lies behind it may move
    /// back; `nil` when the first hop is temporary or there were none.
    public var permanentURL: URL? {
        redirects.prefix { $0.isPermanent }.last?.to
    }
}
