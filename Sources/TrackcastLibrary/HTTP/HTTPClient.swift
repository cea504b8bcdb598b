import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests over HTTP and HTTPS: GETs for feeds and downloads, and the few
/// POSTs of a sync server's API.
///
/// Built on FoundationNetworking's URLSession, which on Linux drives libcurl:
/// that brings TLS with the system's certificates, HTTP/2, proxies from the
/// environment and gzip/deflate decoding (libcurl advertises and decodes
/// them), none of which a hand-written client over sockets would have
/// without an outside package. What URLSession lacks is layered on here:
/// a per-task view of each redirect's status (to tell 301 from 302), a
/// redirect limit, a connect timeout separate from the total, and streaming
/// the body to a receiver that may stop the transfer.
///
/// Caching is off: a feed must reach the parser as the server sends it now,
/// and conditional requests are the caller's (`If-None-Match`, `If-Modified-Since`).
public final class HTTPClient: Sendable {
    private let session: URLSession
    private let delegate: HTTPSessionDelegate
    private let maxRedirects: Int
    private let userAgent: String

    public init(userAgent: String, maxRedirects: Int = 10) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The transfer's own timeouts (HTTPTimeouts) are enforced by the
        // client's watchdog, which can tell connect from total; URLSession's
        // timer (whole seconds on Linux) stays out of the way.
        configuration.timeoutIntervalForRequest = 24 * 3600
        configuration.timeoutIntervalForResource = 24 * 3600
        // Per-host politeness is the refresh's scheduling; URLSession's own
        // limit would only queue requests out of sight of the watchdog.
        configuration.httpMaximumConnectionsPerHost = 64
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Trackcast HTTP"
        delegate = HTTPSessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
    }

    deinit {
        // A session keeps its delegate alive until it is invalidated.
        session.invalidateAndCancel()
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
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        let transfer = HTTPTransfer(receiver: receiver, maxRedirects: maxRedirects, timeouts: timeouts)
        delegate.register(transfer, for: task)

        // Sleeps until the earliest deadline, re-reads it (data may have
        // arrived meanwhile) and fails the transfer once one has passed.
        let watchdog = Task {
            while true {
                let deadline = transfer.nextDeadline
                if deadline.instant <= .now {
                    if transfer.fail(HTTPError.timeout(deadline.phase)) { task.cancel() }
                    return
                }
                try await Task.sleep(until: deadline.instant, clock: .continuous)
            }
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(continuation)
                task.resume()
            }
        } onCancel: {
            if transfer.fail(HTTPError.cancelled) { task.cancel() }
        }
    }
}
