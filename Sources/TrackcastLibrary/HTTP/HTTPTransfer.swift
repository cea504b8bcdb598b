import Foundation
import Synchronization

/// The state of one `HTTPClient.get`, shared by the caller, the watchdog and
/// the session delegate (which calls it on its serial queue).
///
/// The first failure recorded wins: a timeout or a refused redirect cancels
/// the URLSession task, which then completes with its own "cancelled" error,
/// and the caller must hear about the cause, not the symptom.
final class HTTPTransfer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPResponseHead, any Error>?
        var redirects: [RedirectHop] = []
        var head: HTTPResponseHead?
        var failure: (any Error)?
        var lastActivity: ContinuousClock.Instant
    }

    private let receiver: any HTTPResponseReceiver
    private let maxRedirects: Int
    private let timeouts: HTTPTimeouts
    private let started: ContinuousClock.Instant
    private let state: Mutex<State>

    init(receiver: any HTTPResponseReceiver, maxRedirects: Int, timeouts: HTTPTimeouts) {
        self.receiver = receiver
        self.maxRedirects = maxRedirects
        self.timeouts = timeouts
        started = .now
        state = Mutex(State(lastActivity: started))
    }

    func start(_ continuation: CheckedContinuation<HTTPResponseHead, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// The earliest moment a timeout could expire, as things stand, and which one.
    var nextDeadline: (instant: ContinuousClock.Instant, phase: HTTPError.Phase) {
        state.withLock { state in
            var earliest = (instant: started + timeouts.total, phase: HTTPError.Phase.total)
            if state.head == nil {
                if started + timeouts.connect < earliest.instant { earliest = (started + timeouts.connect, .connect) }
            } else if let idle = timeouts.idle, state.lastActivity + idle < earliest.instant {
                earliest = (state.lastActivity + idle, .idle)
            }
            return earliest
        }
    }

    /// Records why the transfer must stop, unless it already has a reason.
    /// Returns whether this was the first.
    @discardableResult
    func fail(_ error: any Error) -> Bool {
        state.withLock { state in
            guard state.failure == nil else { return false }
            state.failure = error
            return true
        }
    }

    /// Whether to follow a redirect: yes until the limit, which also ends loops.
    func shouldFollow(status: Int, from: URL?, to: URL?) -> Bool {
        state.withLock { state in
            guard state.failure == nil else { return false }
            guard state.redirects.count < maxRedirects else {
                state.failure = HTTPError.tooManyRedirects(maxRedirects)
                return false
            }
            if let from, let to { state.redirects.append(RedirectHop(status: status, from: from, to: to)) }
            return true
        }
    }

    /// The final response's head; `false` when the transfer must stop.
    func begin(status: Int, url: URL, headers: [String: String]) -> Bool {
        let head = state.withLock { state -> HTTPResponseHead? in
            guard state.failure == nil else { return nil }
            let head = HTTPResponseHead(status: status, url: url, headers: headers, redirects: state.redirects)
            state.head = head
            state.lastActivity = .now
            return head
        }
        guard let head else { return false }
        do {
            try receiver.begin(head)
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// A chunk of the body; `false` when this chunk stopped the transfer and
    /// the task must be cancelled. Chunks that arrive after a failure are
    /// dropped without asking again: whoever recorded the failure cancelled
    /// the task, and a cancel per chunk would wait on the session's busy
    /// queue for each of the chunks a fast server keeps sending meanwhile.
    func receive(_ chunk: Data) -> Bool {
        let failed = state.withLock { state in
            state.lastActivity = .now
            return state.failure != nil
        }
        guard !failed else { return true }
        do {
            try receiver.receive(chunk)
            return true
        } catch {
            return !fail(error)
        }
    }

    /// The URLSession task completed; `error` is its own (nil on success).
    func complete(urlSessionError error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<HTTPResponseHead, any Error>?, Result<HTTPResponseHead, any Error>) in
            defer { state.continuation = nil }
            if let failure = state.failure { return (state.continuation, .failure(failure)) }
            if let error { return (state.continuation, .failure(Self.classify(error))) }
            guard let head = state.head else {
                return (state.continuation, .failure(HTTPError.network("The server sent no response.")))
            }
            return (state.continuation, .success(head))
        }
        continuation?.resume(with: result)
    }

    private static func classify(_ error: any Error) -> HTTPError {
        guard let urlError = error as? URLError else { return .network(String(describing: error)) }
        switch urlError.code {
        case .timedOut: return .timeout(.total)
        case .cancelled: return .cancelled
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .tooManyRedirects(20)
        case .notConnectedToInternet: return .network("No network connection.")
        case .cannotFindHost, .dnsLookupFailed: return .network("The server's name could not be found.")
        case .cannotConnectToHost: return .network("Could not connect to the server.")
        case .networkConnectionLost: return .network("The connection was lost.")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .network("A secure connection to the server could not be made.")
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .network("The server's response could not be read.")
        default:
            return .network("Network error \(urlError.code.rawValue).")
        }
    }
}
