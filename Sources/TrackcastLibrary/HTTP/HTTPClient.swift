import Foundation

/// Requests over HTTP and HTTPS: GETs for feeds and downloads, and the few
/// POSTs of a sync server's API.
///
/// Built on libcurl, driven through its multi interface on one thread of the
/// client's own (`CurlMultiLoop`). libcurl brings TLS with the system's
/// certificates, HTTP/2, proxies from the environment and gzip/deflate/br
/// decoding. Layered on here: each redirect's status (to tell 301 from
/// 302), a redirect limit, a connect timeout separate from the total, and
/// streaming the body to a receiver that may stop the transfer.
///
/// (FoundationNetworking's URLSession drives libcurl too, but hands its 16 KB
/// reads one at a time through an OperationQueue to a delegate: refreshing
/// 300 MB of feeds spent most of its time in those hops.)
///
/// Nothing is cached and no cookies are kept: a feed must reach the parser as
/// the server sends it now, and conditional requests are the caller's
/// (`If-None-Match`, `If-Modified-Since`).
public final class HTTPClient: Sendable {
    private let loop = CurlMultiLoop()
    private let maxRedirects: Int
    private let userAgent: String

    public init(userAgent: String, maxRedirects: Int = 10) {
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
    }

    /// Fetches `url`, following redirects, and hands the final response to
    /// `receiver`. Returns the final response's head once the body is complete.
    ///
    /// Throws `HTTPError`, or whatever `receiver` threw. An HTTP error status
    /// is not an error here: the receiver sees it and decides.
    public func get(_ url: URL, headers: [String: String] = [:], timeouts: HTTPTimeouts,
                    receiver: some HTTPResponseReceiver) async throws -> HTTPResponseHead {
        try await send("GET", url, headers: headers, body: nil, timeouts: timeouts, receiver: receiver)
    }

    /// `get` with another method and a request body (sent as given; the
    /// caller names its Content-Type in `headers`).
    public func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data?,
                     timeouts: HTTPTimeouts, receiver: some HTTPResponseReceiver) async throws -> HTTPResponseHead {
        var fields = [(name: "User-Agent", value: userAgent)]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "user-agent" {
            fields.append((name, value))
        }
        let request = HTTPRequest(method: method, url: url, headers: fields, body: body)
        let transfer = HTTPTransfer(receiver: receiver, maxRedirects: maxRedirects, timeouts: timeouts)

        // Sleeps until the earliest deadline, re-reads it (data may have
        // arrived meanwhile) and fails the transfer once one has passed.
        let watchdog = Task { [loop] in
            while true {
                let deadline = transfer.nextDeadline
                if deadline.instant <= .now {
                    if transfer.fail(HTTPError.timeout(deadline.phase)) { loop.cancel(transfer) }
                    return
                }
                try await Task.sleep(until: deadline.instant, clock: .continuous)
            }
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(continuation)
                loop.start(request, for: transfer)
            }
        } onCancel: {
            if transfer.fail(HTTPError.cancelled) { loop.cancel(transfer) }
        }
    }
}
