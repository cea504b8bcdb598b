import Foundation
import Synchronization

/// A small HTTP/1.1 server on loopback for the tests: it serves files with
/// Range requests and conditional GETs, as podcast hosts do, and misbehaves
/// on purpose where a route says so. One thread accepts; each connection gets
/// a thread of its own, so a stalled answer holds up nothing else.
///
/// Each server listens on one loopback address (127.0.0.1 unless told
/// otherwise; Linux routes all of 127/8 to the loopback interface), so a test
/// can stand up several "hosts" and see, in each one's log, how a client
/// spreads its requests over them.
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
        /// Serves the body with validators, answering 304 Not Modified to a
        /// request whose If-None-Match holds `etag` or whose If-Modified-Since
        /// is `lastModified` (compared as text, as many servers do), and
        /// honouring a Range only if If-Range (when sent) matches. With
        /// `gzip`, a client that accepts gzip gets the body compressed.
        case document(Data, contentType: String, etag: String? = nil, lastModified: String? = nil, gzip: Bool = false)
        /// `prefix`, then `pattern` over and over until `totalBytes` in all, made
        /// as it is sent (a 2 GB body costs no memory here). With `announced`
        /// the length is in the header; without, the body runs until the
        /// client hangs up or the total is reached, then the connection closes.
        case generated(prefix: Data, pattern: Data, totalBytes: Int64, contentType: String, announced: Bool)
        /// Announces `announcedLength` in Content-Length but sends all of
        /// `data`, whatever its length, then closes the connection.
        case lyingLength(Data, contentType: String, announcedLength: Int)
        /// 200 with the body and no Content-Type header at all.
        case untyped(Data)
        /// `data` as it is, labelled with `Content-Encoding: encoding`
        /// whatever the client accepts, with no length: the body ends when the
        /// connection closes. What a hostile server sends (a gzip bomb, a
        /// stream that inflates to nothing).
        case encoded(Data, contentType: String, encoding: String)
        /// A redirect (301, 302, 307, 308) to `location`, relative or absolute.
        case redirect(Int, to: String)
        /// Whatever `answer` makes of the request, body included: an API of
        /// the test's own (see `GPodderTestServer`). Runs on the connection's thread.
        case handler(@Sendable (HandledRequest) -> HandledResponse)
    }

    /// A request as a `handler` sees it.
    public struct HandledRequest: Sendable {
        public let method: String
        public let path: String
        /// The query's fields, percent-decoded.
        public let query: [String: String]
        /// Header names lowercased.
        public let headers: [String: String]
        public let body: Data
    }

    /// What a `handler` answers.
    public struct HandledResponse: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Lets a behaviour contain another.
    public final class Box: Sendable {
        public let behaviour: Behaviour
        public init(_ behaviour: Behaviour) { self.behaviour = behaviour }
    }

    /// One request as the server saw it.
    public struct LoggedRequest: Sendable {
        /// e.g. "GET /feed.xml?page=2 HTTP/1.1".
        public let requestLine: String
        public let method: String
        public let path: String
        /// Header names lowercased.
        public let headers: [String: String]
        /// Which connection it came on: numbered from 1 as they are accepted.
        public let connection: Int
        public let started: ContinuousClock.Instant
        /// When the answer was written in full or the connection dropped; `nil` while in progress.
        public var finished: ContinuousClock.Instant?
        /// The status sent, `nil` if none was (stall, reset).
        public var status: Int?

        /// Whether the two requests were being served at the same time.
        public func overlaps(_ other: LoggedRequest) -> Bool {
            let end = finished ?? .now
            let otherEnd = other.finished ?? .now
            return started < otherEnd && other.started < end
        }
    }

    private struct State {
        var routes: [String: Behaviour] = [:]
        var fallback: Behaviour?
        var log: [LoggedRequest] = []
        var openConnections: [Int32: String] = [:]
        /// The log entry of the request each connection is answering.
        var answering: [Int32: Int] = [:]
        var brokenPaths: Set<String> = []
        var inFlight = 0
        var maxInFlight = 0
        var acceptedConnections = 0
        var isStopped = false
    }

    /// The loopback address the server listens on, e.g. "127.0.0.2".
    public let address: String
    public let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())

    public init(address: String = "127.0.0.1") throws {
        let (socket, port) = try boundLoopbackSocket(address: address, reusingAddress: true)
        guard listen(socket, 128) == 0 else {
            close(socket)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        self.address = address
        self.port = port
        listener = socket
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test-http-accept"
        thread.start()
    }

    deinit { stop() }

    public func url(_ path: String) -> String { "http://\(address):\(port)\(path)" }

    public func route(_ path: String, _ behaviour: Behaviour) {
        state.withLock { $0.routes[path] = behaviour }
    }

    /// How paths without a route of their own are answered (404 unless set).
    public func routeEverythingElse(_ behaviour: Behaviour) {
        state.withLock { $0.fallback = behaviour }
    }

    /// The request lines and Range headers received so far, in order.
    public var requests: [String] {
        state.withLock { state in
            state.log.map { request in
                request.requestLine + (request.headers["range"].map { " [\($0)]" } ?? "")
            }
        }
    }

    /// Every request received so far, in the order they arrived.
    public var log: [LoggedRequest] { state.withLock { $0.log } }

    /// The requests for `path`, in order.
    public func log(for path: String) -> [LoggedRequest] { log.filter { $0.path == path } }

    /// The most requests this server was ever serving at once.
    public var maxConcurrentRequests: Int { state.withLock { $0.maxInFlight } }

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

    /// `data` compressed by the system's gzip, for routes and for checking sizes.
    public static func gzipped(_ data: Data) throws -> Data {
        try ChildProcess.runSynchronously(URL(fileURLWithPath: "/bin/gzip"), arguments: ["-c", "-n"], input: data)
            .standardOutput
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
            let number = state.withLock { state in
                state.acceptedConnections += 1
                return state.acceptedConnections
            }
            let thread = Thread { [self] in serve(connection, number: number) }
            thread.name = "test-http-connection"
            thread.start()
        }
    }

    // MARK: One connection

    private func serve(_ connection: Int32, number: Int) {
        defer {
            state.withLock { $0.openConnections[connection] = nil }
            close(connection)
        }
        // Keep-alive: GStreamer and libcurl reuse connections.
        while let request = readRequest(connection) {
            let (behaviour, index) = state.withLock { state -> (Behaviour?, Int) in
                state.log.append(LoggedRequest(requestLine: request.line, method: request.method, path: request.path,
                                               headers: request.headers, connection: number, started: .now))
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                state.openConnections[connection] = request.path
                state.answering[connection] = state.log.count - 1
                return (state.brokenPaths.contains(request.path) ? .reset : state.routes[request.path] ?? state.fallback,
                        state.log.count - 1)
            }
            let outcome = respond(connection, request, behaviour ?? .status(404))
            state.withLock { state in
                state.inFlight -= 1
                state.log[index].finished = .now
                state.log[index].status = state.log[index].status ?? outcome.status
                state.answering[connection] = nil
            }
            guard outcome.keepAlive else { return }
        }
    }

    private struct Request {
        let line: String
        let method: String
        let path: String
        let headers: [String: String]
        let query: String
        let body: Data

        var range: String? { headers["range"] }
    }

    private struct Outcome {
        var status: Int?
        var keepAlive: Bool
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = [UInt8]()
        var byte: UInt8 = 0
        while !buffer.ends(with: [13, 10, 13, 10]) {
            let count = recv(connection, &byte, 1, 0)
            guard count > 0 else { return nil }
            buffer.append(byte)
            if buffer.count > 65536 { return nil }
        }
        let lines = String(decoding: buffer, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(target.first ?? parts[1])
        // The body is read whole, so the next request on the connection starts where it should.
        var body = [UInt8]()
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        guard length <= 256 << 20 else { return nil }
        if length > 0 {
            body = [UInt8](repeating: 0, count: length)
            var received = 0
            while received < length {
                let count = body.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + received, length - received, 0) }
                guard count > 0 else { return nil }
                received += count
            }
        }
        return Request(line: lines[0], method: String(parts[0]), path: path, headers: headers,
                       query: target.count > 1 ? String(target[1]) : "", body: Data(body))
    }

    /// Answers one request.
    private func respond(_ connection: Int32, _ request: Request, _ behaviour: Behaviour) -> Outcome {
        switch behaviour {
        case .status(let status):
            return Outcome(status: status, keepAlive: send(connection, header(on: connection, status: status, length: 0, type: nil)))
        case .delay(let wait, let then):
            guard sleepUnlessStopped(wait) else { return Outcome(keepAlive: false) }
            return respond(connection, request, then.behaviour)
        case .stall:
            while sleepUnlessStopped(.milliseconds(50)) {}
            return Outcome(keepAlive: false)
        case .reset:
            Self.abortOnClose(connection)
            return Outcome(keepAlive: false)
        case .serve(let data, let type):
            return serveBody(connection, request, data, type: type)
        case .truncated(let data, let type, let fraction):
            return serveBody(connection, request, data, type: type, limit: Int(Double(data.count) * fraction))
        case .throttled(let data, let type, let rate):
            return serveBody(connection, request, data, type: type, bytesPerSecond: rate)
        case .stallAfter(let bytes, let data, let type):
            return serveBody(connection, request, data, type: type, stallAfter: bytes)
        case .document(let data, let type, let etag, let lastModified, let gzip):
            return serveDocument(connection, request, data, type: type, etag: etag, lastModified: lastModified, gzip: gzip)
        case .redirect(let status, let location):
            let sent = send(connection, header(on: connection, status: status, length: 0, type: nil, extra: "Location: \(location)\r\n"))
            return Outcome(status: status, keepAlive: sent)
        case .generated(let prefix, let pattern, let total, let type, let announced):
            return serveGenerated(connection, prefix: prefix, pattern: pattern, total: total, type: type, announced: announced)
        case .lyingLength(let data, let type, let announcedLength):
            guard send(connection, header(on: connection, status: 200, length: announcedLength, type: type)) else {
                return Outcome(status: 200, keepAlive: false)
            }
            _ = send(connection, data)
            shutdown(connection, Int32(SHUT_RDWR))
            return Outcome(status: 200, keepAlive: false)
        case .untyped(let data):
            return serveBody(connection, request, data, type: nil)
        case .handler(let answer):
            var query: [String: String] = [:]
            for field in request.query.split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                query[name] = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
            }
            let response = answer(HandledRequest(method: request.method, path: request.path, query: query,
                                                 headers: request.headers, body: request.body))
            let extra = response.headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            let sent = send(connection, header(on: connection, status: response.status, length: response.body.count,
                                               type: nil, extra: extra))
                && (request.method == "HEAD" || send(connection, response.body))
            return Outcome(status: response.status, keepAlive: sent)
        case .encoded(let data, let type, let encoding):
            guard send(connection, header(on: connection, status: 200, length: nil, type: type,
                                          extra: "Content-Encoding: \(encoding)\r\nConnection: close\r\n"))
            else { return Outcome(status: 200, keepAlive: false) }
            var sent = 0
            while sent < data.count, !isStopped {
                let end = min(data.count, sent + 65_536)
                guard send(connection, data[sent..<end]) else { return Outcome(status: 200, keepAlive: false) }
                sent = end
                usleep(1000)  // paced as `generated` is, for the same reason
            }
            shutdown(connection, Int32(SHUT_RDWR))
            return Outcome(status: 200, keepAlive: false)
        }
    }

    private func serveGenerated(_ connection: Int32, prefix: Data, pattern: Data, total: Int64, type: String,
                                announced: Bool) -> Outcome {
        let length = announced ? Int(total) : nil
        // Without a length the body ends when the connection closes (HTTP/1.1 allows it without keep-alive).
        guard send(connection, header(on: connection, status: 200, length: length, type: type, extra: announced ? "" : "Connection: close\r\n"))
        else { return Outcome(status: 200, keepAlive: false) }
        // About 64 KiB of whole patterns per send.
        let block = Data(Array(repeating: pattern, count: max(1, 65_536 / max(1, pattern.count))).joined())
        var sent = Int64(0)
        if !prefix.isEmpty {
            guard send(connection, prefix.prefix(Int(total))) else { return Outcome(status: 200, keepAlive: false) }
            sent = Int64(min(prefix.count, Int(total)))
        }
        // At most 64 KiB a millisecond (64 MB/s, a fast network), so that a long body is
        // still arriving when a limit or a cancel stops it (see Network faults in
        // docs/RELIABILITY.md). Paced by the clock, not a sleep per block: on a loaded
        // machine each 1 ms sleep took several, and a 50 MB cap was not reached within
        // a test's 3 s timeout.
        let start = ContinuousClock.now
        while sent < total, !isStopped {
            let chunk = block.prefix(Int(min(Int64(block.count), total - sent)))
            guard send(connection, chunk) else { return Outcome(status: 200, keepAlive: false) }
            sent += Int64(chunk.count)
            let ahead = start + .microseconds(sent * 1_000 / 65_536) - .now
            if ahead > .zero { usleep(UInt32(ahead / .microseconds(1))) }
        }
        shutdown(connection, Int32(SHUT_RDWR))
        return Outcome(status: 200, keepAlive: false)
    }

    private func serveDocument(_ connection: Int32, _ request: Request, _ data: Data, type: String,
                               etag: String?, lastModified: String?, gzip: Bool) -> Outcome {
        var validators = ""
        if let etag { validators += "ETag: \(etag)\r\n" }
        if let lastModified { validators += "Last-Modified: \(lastModified)\r\n" }
        let etagMatches = etag != nil && request.headers["if-none-match"].map { header in
            header.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
        } == true
        // RFC 9110: If-Modified-Since is ignored when If-None-Match is present.
        let dateMatches = request.headers["if-none-match"] == nil && lastModified != nil
            && request.headers["if-modified-since"] == lastModified
        if etagMatches || dateMatches {
            return Outcome(status: 304, keepAlive: send(connection, header(on: connection, status: 304, length: nil, type: nil, extra: validators)))
        }
        let acceptsGzip = request.headers["accept-encoding"]?.split(separator: ",")
            .contains { $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces) == "gzip" } ?? false
        if gzip, acceptsGzip, let compressed = try? Self.gzipped(data) {
            var outcome = serveBody(connection, request, compressed, type: type,
                                    extra: validators + "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n",
                                    ranges: false)
            outcome.status = 200
            return outcome
        }
        // If-Range: the part asked for only if the document is still the one
        // the client has the rest of; otherwise all of it.
        let rangeStillValid = request.headers["if-range"].map { $0 == etag || $0 == lastModified } ?? true
        return serveBody(connection, request, data, type: type, extra: validators, ranges: rangeStillValid)
    }

    private func serveBody(_ connection: Int32, _ request: Request, _ data: Data, type: String?, extra: String = "",
                           ranges: Bool = true, limit: Int? = nil, bytesPerSecond: Int? = nil,
                           stallAfter: Int? = nil) -> Outcome {
        var slice = 0..<data.count
        var status = 200
        var extra = extra + (ranges ? "Accept-Ranges: bytes\r\n" : "")
        if ranges, let range = request.range, let parsed = Self.parseRange(range, size: data.count) {
            guard !parsed.isEmpty else {
                let sent = send(connection, header(on: connection, status: 416, length: 0, type: nil,
                                                   extra: "Content-Range: bytes */\(data.count)\r\n"))
                return Outcome(status: 416, keepAlive: sent)
            }
            slice = parsed
            status = 206
            extra += "Content-Range: bytes \(parsed.lowerBound)-\(parsed.upperBound - 1)/\(data.count)\r\n"
        }
        guard send(connection, header(on: connection, status: status, length: slice.count, type: type, extra: extra)) else {
            return Outcome(status: status, keepAlive: false)
        }
        guard request.method != "HEAD" else { return Outcome(status: status, keepAlive: true) }
        var sent = 0
        let chunkSize = bytesPerSecond.map { max(1, $0 / 20) } ?? 16384
        while sent < slice.count {
            if let limit, slice.lowerBound + sent >= limit {
                shutdown(connection, Int32(SHUT_RDWR))
                return Outcome(status: status, keepAlive: false)
            }
            if let stallAfter, slice.lowerBound + sent >= stallAfter {
                while sleepUnlessStopped(.milliseconds(50)) {}
                return Outcome(status: status, keepAlive: false)
            }
            var end = min(slice.count, sent + chunkSize)
            if let limit { end = min(end, limit - slice.lowerBound) }
            if let stallAfter { end = min(end, max(stallAfter - slice.lowerBound, sent + 1)) }
            let chunk = data[(slice.lowerBound + sent)..<(slice.lowerBound + end)]
            guard send(connection, chunk) else { return Outcome(status: status, keepAlive: false) }
            sent = end
            if bytesPerSecond != nil, !sleepUnlessStopped(.milliseconds(50)) {
                return Outcome(status: status, keepAlive: false)
            }
        }
        return Outcome(status: status, keepAlive: true)
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

    /// `length` nil: a 304, which has no body and must not announce one.
    /// A response's head, its status logged before it is sent: a client that
    /// has read the answer finds the status in the log.
    private func header(on connection: Int32, status: Int, length: Int?, type: String?, extra: String = "") -> Data {
        state.withLock { state in
            if let index = state.answering[connection] { state.log[index].status = status }
        }
        let reason = [200: "OK", 206: "Partial Content", 301: "Moved Permanently", 302: "Found",
                      304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
                      400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
                      405: "Method Not Allowed", 410: "Gone", 416: "Range Not Satisfiable",
                      500: "Internal Server Error", 503: "Service Unavailable"][status]
            ?? "Status"
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        if let length { text += "Content-Length: \(length)\r\n" }
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
