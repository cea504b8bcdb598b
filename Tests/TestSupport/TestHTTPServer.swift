import Foundation
import Synchronization

/// A small HTTP/1.1 server on loopback for the tests: it serves
/// files with Range requests, as podcast hosts do, and misbehaves on
/// purpose where a route says so. One thread accepts; each connection gets a
/// thread of its own, so a stalled answer holds up nothing else.
public final class TestHTTPServer: Sendable {
    public enum Behaviour: Sendable {
        /// 200 with the body, or 206 for a Range request.
        case serve(Data, contentType: String)
        /// An empty answer with this status, e.g. 404, 500.
        case status(Int)
        /// Waits, then behaves as `then`.
        case delay(Duration, then: Box)
        /// Reads the request and never answers (until the server stops).
        case stall
        /// Reads the request, then resets the connection.
        case reset
        /// Announces the whole body but sends only `fraction` of it, then closes.
        case truncated(Data, contentType: String, fraction: Double)
        /// Serves at `bytesPerSecond`.
        case throttled(Data, contentType: String, bytesPerSecond: Int)
        /// Serves the first `bytes` at full speed, then stalls for good.
        case stallAfter(bytes: Int, Data, contentType: String)
    }

    /// Lets a behaviour contain another.
    public final class Box: Sendable {
        public let behaviour: Behaviour
        public init(_ behaviour: Behaviour) { self.behaviour = behaviour }
    }

    private struct State {
        var routes: [String: Behaviour] = [:]
        public var requests: [String] = []
        var openConnections: [Int32: String] = [:]
        var brokenPaths: Set<String> = []
        var isStopped = false
    }

    public let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())

    public init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            close(socket)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = socket
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test-http-accept"
        thread.start()
    }

    deinit { stop() }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    public func route(_ path: String, _ behaviour: Behaviour) {
        state.withLock { $0.routes[path] = behaviour }
    }

    /// The request lines and Range headers received so far, in order.
    public var requests: [String] { state.withLock { $0.requests } }

    /// Resets every open connection serving `path`, and any later one: the
    /// server "fails" in the middle of a transfer.
    public func breakConnections(to path: String) {
        state.withLock { state in
            state.brokenPaths.insert(path)
            for (socket, served) in state.openConnections where served == path {
                // The serving thread's next send fails and it closes the socket, with RST.
                Self.abortOnClose(socket)
                shutdown(socket, Int32(SHUT_RDWR))
            }
        }
    }

    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.isStopped = true }
            return state.isStopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var isStopped: Bool { state.withLock { $0.isStopped } }

    private func acceptLoop() {
        while !isStopped {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var noDelay: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let thread = Thread { [self] in serve(connection) }
            thread.name = "test-http-connection"
            thread.start()
        }
    }

    // MARK: One connection

    private func serve(_ connection: Int32) {
        defer {
            state.withLock { $0.openConnections[connection] = nil }
            close(connection)
        }
        // Keep-alive: GStreamer reuses connections for Range requests.
        while let request = readRequest(connection) {
            let behaviour = state.withLock { state -> Behaviour? in
                state.requests.append(request.line + (request.range.map { " [\($0)]" } ?? ""))
                state.openConnections[connection] = request.path
                return state.brokenPaths.contains(request.path) ? .reset : state.routes[request.path]
            }
            guard respond(connection, request, behaviour ?? .status(404)) else { return }
        }
    }

    private struct Request {
        let line: String
        let method: String
        let path: String
        let range: String?
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !buffer.ends(with: [13, 10, 13, 10]) {
            let count = recv(connection, &chunk, 1, 0)
            guard count > 0 else { return nil }
            buffer.append(chunk[0])
            if buffer.count > 65536 { return nil }
        }
        let lines = String(decoding: buffer, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let range = lines.dropFirst().first { $0.lowercased().hasPrefix("range:") }
            .map { String($0.dropFirst("range:".count)).trimmingCharacters(in: .whitespaces) }
        let path = String(parts[1].split(separator: "?").first ?? parts[1])
        return Request(line: lines[0], method: String(parts[0]), path: path, range: range)
    }

    /// Answers one request; returns whether the connection may be reused.
    private func respond(_ connection: Int32, _ request: Request, _ behaviour: Behaviour) -> Bool {
        switch behaviour {
        case .status(let status):
            return send(connection, header(status: status, length: 0, type: nil))
        case .delay(let wait, let then):
            guard sleepUnlessStopped(wait) else { return false }
            return respond(connection, request, then.behaviour)
        case .stall:
            while sleepUnlessStopped(.milliseconds(50)) {}
            return false
        case .reset:
            Self.abortOnClose(connection)
            return false
        case .serve(let data, let type):
            return serveBody(connection, request, data, type: type, limit: nil, bytesPerSecond: nil, stallAfter: nil)
        case .truncated(let data, let type, let fraction):
            return serveBody(connection, request, data, type: type, limit: Int(Double(data.count) * fraction),
                             bytesPerSecond: nil, stallAfter: nil)
        case .throttled(let data, let type, let rate):
            return serveBody(connection, request, data, type: type, limit: nil, bytesPerSecond: rate, stallAfter: nil)
        case .stallAfter(let bytes, let data, let type):
            return serveBody(connection, request, data, type: type, limit: nil, bytesPerSecond: nil, stallAfter: bytes)
        }
    }

    private func serveBody(_ connection: Int32, _ request: Request, _ data: Data, type: String,
                           limit: Int?, bytesPerSecond: Int?, stallAfter: Int?) -> Bool {
        var slice = 0..<data.count
        var status = 200
        var extra = "Accept-Ranges: bytes\r\n"
        if let range = request.range, let parsed = Self.parseRange(range, size: data.count) {
            guard !parsed.isEmpty else {
                return send(connection, header(status: 416, length: 0, type: nil,
                                                extra: "Content-Range: bytes */\(data.count)\r\n"))
            }
            slice = parsed
            status = 206
            extra += "Content-Range: bytes \(parsed.lowerBound)-\(parsed.upperBound - 1)/\(data.count)\r\n"
        }
        guard send(connection, header(status: status, length: slice.count, type: type, extra: extra)) else { return false }
        guard request.method != "HEAD" else { return true }
        var sent = 0
        let chunkSize = bytesPerSecond.map { max(1, $0 / 20) } ?? 16384
        while sent < slice.count {
            if let limit, slice.lowerBound + sent >= limit {
                shutdown(connection, Int32(SHUT_RDWR))
                return false
            }
            if let stallAfter, slice.lowerBound + sent >= stallAfter {
                while sleepUnlessStopped(.milliseconds(50)) {}
                return false
            }
            var end = min(slice.count, sent + chunkSize)
            if let limit { end = min(end, limit - slice.lowerBound) }
            if let stallAfter { end = min(end, max(stallAfter - slice.lowerBound, sent + 1)) }
            let chunk = data[(slice.lowerBound + sent)..<(slice.lowerBound + end)]
            guard send(connection, chunk) else { return false }
            sent = end
            if bytesPerSecond != nil, !sleepUnlessStopped(.milliseconds(50)) { return false }
        }
        return true
    }

    /// "bytes=a-b", "bytes=a-", "bytes=-n" → the byte range; nil if it cannot be read
    /// (then the whole body is sent); empty when it lies outside the body.
    private static func parseRange(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes=") else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: ",")[0]
        let bounds = spec.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        if bounds[0].isEmpty {
            guard let suffix = Int(bounds[1]) else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let start = Int(bounds[0]) else { return nil }
        let end = bounds[1].isEmpty ? size - 1 : min(Int(bounds[1]) ?? size - 1, size - 1)
        guard start < size, start <= end else { return 0..<0 }
        return start..<(end + 1)
    }

    private func header(status: Int, length: Int, type: String?, extra: String = "") -> Data {
        let reason = [200: "OK", 206: "Partial Content", 403: "Forbidden", 404: "Not Found", 410: "Gone",
                      416: "Range Not Satisfiable", 500: "Internal Server Error", 503: "Service Unavailable"][status]
            ?? "Status"
        var text = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(length)\r\n"
        if let type { text += "Content-Type: \(type)\r\n" }
        text += extra + "\r\n"
        return Data(text.utf8)
    }

    private func send(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(connection, buffer.baseAddress! + offset, buffer.count - offset,
                                         Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    private func sleepUnlessStopped(_ duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if isStopped { return false }
            Thread.sleep(forTimeInterval: min(0.02, Double((deadline - ContinuousClock.now) / .milliseconds(1)) / 1000))
        }
        return !isStopped
    }

    /// SO_LINGER with a zero timeout makes close() send RST instead of FIN.
    private static func abortOnClose(_ socket: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
