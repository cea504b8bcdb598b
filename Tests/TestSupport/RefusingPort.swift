import Foundation

/// A loopback port that refuses connections for as long as this lives: a
/// socket bound to it that does not listen. A server stopped for the purpose
/// frees its port, which a test running alongside can take for a server of
/// its own at once (a refresh then got that server's answer, not a refusal);
/// a port held like this no other socket can bind.
public final class RefusingPort: Sendable {
    public let address: String
    public let port: UInt16
    private let socket: Int32

    public init(address: String = "127.0.0.1") throws {
        (socket, port) = try boundLoopbackSocket(address: address, reusingAddress: false)
        self.address = address
    }

    deinit { close(socket) }

    /// "http://ADDRESS:PORT" + `path`.
    public func url(_ path: String) -> String { "http://\(address):\(port)\(path)" }
}
