import Foundation

/// Takes one transfer's final response: its head, then its body in order.
///
/// Called on the client's network thread, one call at a time, never on the
/// main thread. Throwing stops the transfer, and the error reaches the
/// caller of `HTTPClient.get` as it was thrown.
public protocol HTTPResponseReceiver: Sendable {
    func begin(_ head: HTTPResponseHead) throws
    /// `chunk` is libcurl's buffer, valid only during the call: a receiver
    /// copies what it keeps, once, to where it keeps it.
    func receive(_ chunk: UnsafeRawBufferPointer) throws
}
