import Foundation

/// Why a transfer failed, sorted into what a person can act on. (An error
/// thrown by the transfer's `HTTPResponseReceiver` reaches the caller as itself.)
public enum HTTPError: Error, Sendable, Equatable {
    /// No connection could be made: no network, the name does not resolve,
    /// the connection was refused or reset, TLS failed. The text is the system's.
    case network(String)
    /// The phase that ran out of time.
    case timeout(Phase)
    /// More redirects than allowed, which includes a loop.
    case tooManyRedirects(Int)
    /// The body went past the size limit (decompressed bytes).
    case tooLarge(limit: Int64)
    case cancelled

    public enum Phase: String, Sendable, Equatable {
        case connect
        case total
        /// The body stopped arriving (`HTTPTimeouts.idle`).
        case idle
    }
}
