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
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(socket)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.address = address
        port = UInt16(bigEndian: socketAddress.sin_port)
        self.socket = socket
    }

    deinit { close(socket) }

    /// "http://ADDRESS:PORT" + `path`.
    public func url(_ path: String) -> String { "http://\(address):\(port)\(path)" }
}
