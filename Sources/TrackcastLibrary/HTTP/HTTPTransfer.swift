import CCurl
import Foundation
import Synchronization

/// The state of one `HTTPClient.get`, shared by the caller, the watchdog and
/// the network thread (`CurlMultiLoop`).
///
/// The first failure recorded wins: a timeout or a refused redirect stops
/// the libcurl transfer, which then ends with its own "aborted" code, and
/// the caller must hear about the cause, not the symptom.
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

    var hasFailed: Bool {
        state.withLock { $0.failure != nil }
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

    /// A chunk of the body; `false` when the transfer must stop, because
    /// the receiver threw or a failure was recorded meanwhile.
    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let failed = state.withLock { state in
            state.lastActivity = .now
            return state.failure != nil
        }
        guard !failed else { return false }
        do {
            try receiver.receive(chunk)
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// The transfer ended with libcurl's `code` (`CURLE_OK` on success).
    /// Called once, on the network thread.
    func complete(curlCode code: CURLcode) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<HTTPResponseHead, any Error>?, Result<HTTPResponseHead, any Error>) in
            defer { state.continuation = nil }
            if let failure = state.failure { return (state.continuation, .failure(failure)) }
            if code != CURLE_OK { return (state.continuation, .failure(HTTPError(code))) }
            guard let head = state.head else {
                return (state.continuation, .failure(HTTPError.network("The server sent no response.")))
            }
            return (state.continuation, .success(head))
        }
        continuation?.resume(with: result)
    }
}
