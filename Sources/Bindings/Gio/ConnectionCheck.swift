import CGLib
import Synchronization

/// Asks a URI's server for the URI's headers with GIO, to learn why a
/// network source failed: GStreamer's HTTP source reports a refused
/// connection, an unknown host or a server that stopped answering only as a
/// generic stream error. Connects (with TLS for https), sends a HEAD request
/// and waits for the first byte of the answer; GIO's error code says what
/// went wrong.
public enum ConnectionCheck {
    public enum Outcome: Sendable, Equatable {
        /// The server answered.
        case answered
        case hostNotFound
        case connectionRefused
        case networkUnreachable
        /// Connecting, or waiting for the answer, took longer than allowed.
        case timedOut
        case failed(GLibError)
    }

    /// Checks `uri` (port 80 or 443 unless it names one), giving up after
    /// `timeout` at each step. Runs on the helper thread; cancelling the task cancels it.
    public static func run(_ uri: String, timeout: Duration) async -> Outcome {
        let attempt = Attempt()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                attempt.start(uri: uri, timeout: timeout, continuation)
            }
        } onCancel: {
            attempt.cancel()
        }
    }

    static func outcome(_ error: GLibError) -> Outcome {
        if error.domain == String(cString: g_quark_to_string(g_resolver_error_quark())) {
            return error.code == Int32(G_RESOLVER_ERROR_NOT_FOUND.rawValue) ? .hostNotFound : .failed(error)
        }
        guard error.domain == String(cString: g_quark_to_string(g_io_error_quark())) else { return .failed(error) }
        switch GIOErrorEnum(rawValue: UInt32(error.code)) {
        case G_IO_ERROR_CONNECTION_REFUSED: return .connectionRefused
        case G_IO_ERROR_HOST_NOT_FOUND: return .hostNotFound
        case G_IO_ERROR_NETWORK_UNREACHABLE, G_IO_ERROR_HOST_UNREACHABLE: return .networkUnreachable
        case G_IO_ERROR_TIMED_OUT: return .timedOut
        default: return .failed(error)
        }
    }
}

/// What the connect callback needs: the attempt and the request to send.
private final class RequestBox {
    let attempt: Attempt
    let request: [UInt8]
    init(attempt: Attempt, request: [UInt8]) {
        self.attempt = attempt
        self.request = request
    }
}

/// One request and answer on an open connection, kept alive (retained
/// through the callbacks' user data) until the answer or the error comes.
/// Used only on the helper thread.
private final class Exchange {
    let attempt: Attempt
    private let connection: UnsafeMutablePointer<GSocketConnection>
    /// Allocated here, so the bytes stay put while GIO works on them.
    private let request: UnsafeMutableRawBufferPointer
    private let answer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)

    init(attempt: Attempt, connection: UnsafeMutablePointer<GSocketConnection>, request: [UInt8]) {
        self.attempt = attempt
        self.connection = connection
        self.request = UnsafeMutableRawBufferPointer.allocate(byteCount: request.count, alignment: 1)
        self.request.copyBytes(from: request)
    }

    deinit {
        g_object_unref(connection)
        request.deallocate()
        answer.deallocate()
    }

    private var stream: UnsafeMutablePointer<GIOStream> {
        UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
    }

    /// Sends the request, then reads the answer's first byte. The exchange
    /// keeps itself alive through the callbacks' user data.
    func start() {
        let userData = Unmanaged.passRetained(self).toOpaque()
        g_output_stream_write_all_async(g_io_stream_get_output_stream(stream), request.baseAddress, gsize(request.count),
                                        G_PRIORITY_DEFAULT, attempt.cancellable, { source, result, userData in
            let exchange = Unmanaged<Exchange>.fromOpaque(userData!).takeUnretainedValue()
            var error: UnsafeMutablePointer<GError>?
            g_output_stream_write_all_finish(UnsafeMutableRawPointer(source!).assumingMemoryBound(to: GOutputStream.self),
                                             result, nil, &error)
            if let error {
                exchange.close(with: ConnectionCheck.outcome(GLibError(consuming: error)))
                Unmanaged<Exchange>.fromOpaque(userData!).release()
            } else {
                exchange.readAnswer(userData!)
            }
        }, userData)
    }

    /// `userData` is this exchange, retained; the read's callback releases it.
    private func readAnswer(_ userData: UnsafeMutableRawPointer) {
        g_input_stream_read_async(g_io_stream_get_input_stream(stream), answer.baseAddress, 1, G_PRIORITY_DEFAULT,
                                  attempt.cancellable, { source, result, userData in
            let exchange = Unmanaged<Exchange>.fromOpaque(userData!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let count = g_input_stream_read_finish(UnsafeMutableRawPointer(source!).assumingMemoryBound(to: GInputStream.self),
                                                   result, &error)
            if let error {
                exchange.close(with: ConnectionCheck.outcome(GLibError(consuming: error)))
            } else if count > 0 {
                exchange.close(with: .answered)
            } else {
                exchange.close(with: .failed(GLibError(domain: "g-io-error-quark", code: Int32(G_IO_ERROR_CONNECTION_CLOSED.rawValue),
                                                       message: "the server closed the connection without answering")))
            }
        }, userData)
    }

    private func close(with outcome: ConnectionCheck.Outcome) {
        g_io_stream_close(stream, nil, nil)
        attempt.finish(outcome)
    }
}

/// One check; its GIO objects live on the helper thread.
private final class Attempt: Sendable {
    private struct State {
        var continuation: CheckedContinuation<ConnectionCheck.Outcome, Never>?
        var isCancelled = false
    }

    private let state = Mutex(State())
    /// GCancellable is thread-safe; kept as an address because pointers may
    /// not be shared across threads in Swift's eyes. Freed in deinit.
    private let cancellableAddress = UInt(bitPattern: g_cancellable_new())

    deinit { g_object_unref(UnsafeMutableRawPointer(bitPattern: cancellableAddress)) }

    var cancellable: UnsafeMutablePointer<GCancellable> {
        UnsafeMutablePointer(bitPattern: cancellableAddress)!
    }

    func start(uri: String, timeout: Duration, _ continuation: CheckedContinuation<ConnectionCheck.Outcome, Never>) {
        let cancelled = state.withLock { state in
            if !state.isCancelled { state.continuation = continuation }
            return state.isCancelled
        }
        if cancelled {
            continuation.resume(returning: .failed(GLibError(domain: "g-io-error-quark", code: Int32(G_IO_ERROR_CANCELLED.rawValue),
                                                             message: "cancelled")))
            return
        }
        ContextThread.shared.schedule { [self] in
            let client = g_socket_client_new()
            g_socket_client_set_timeout(client, guint(max(1, timeout.components.seconds)))
            let defaultPort: guint16 = uri.lowercased().hasPrefix("https:") ? 443 : 80
            g_socket_client_set_tls(client, uri.lowercased().hasPrefix("https:") ? 1 : 0)
            let request = Self.headRequest(for: uri)
            let box = Unmanaged.passRetained(RequestBox(attempt: self, request: request)).toOpaque()
            g_socket_client_connect_to_uri_async(client, uri, defaultPort, cancellable, { source, result, userData in
                let box = Unmanaged<RequestBox>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let client = UnsafeMutableRawPointer(source!).assumingMemoryBound(to: GSocketClient.self)
                guard let connection = g_socket_client_connect_to_uri_finish(client, result, &error) else {
                    box.attempt.finish(ConnectionCheck.outcome(GLibError(consuming: error!)))
                    return
                }
                box.attempt.ask(connection, request: box.request)
            }, box)
            g_object_unref(client)
        }
    }

    /// "HEAD /path HTTP/1.1" with the host; the server's first byte is all that matters.
    private static func headRequest(for uri: String) -> [UInt8] {
        var host = "localhost"
        var target = "/"
        if let parsed = g_uri_parse(uri, G_URI_FLAGS_ENCODED, nil) {
            defer { g_uri_unref(parsed) }
            host = g_uri_get_host(parsed).map { String(cString: $0) } ?? host
            let port = g_uri_get_port(parsed)
            if port > 0 { host += ":\(port)" }
            let path = g_uri_get_path(parsed).map { String(cString: $0) } ?? ""
            target = (path.isEmpty ? "/" : path) + (g_uri_get_query(parsed).map { "?" + String(cString: $0) } ?? "")
        }
        return Array("HEAD \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
    }

    /// On the helper thread: sends the request, then reads one byte.
    private func ask(_ connection: UnsafeMutablePointer<GSocketConnection>, request: [UInt8]) {
        Exchange(attempt: self, connection: connection, request: request).start()
    }

    func cancel() {
        state.withLock { $0.isCancelled = true }
        g_cancellable_cancel(cancellable)
    }

    func finish(_ outcome: ConnectionCheck.Outcome) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
