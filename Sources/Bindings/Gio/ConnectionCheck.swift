import CGLib
import Synchronization

/// Opens (and closes) a TCP connection to a URI's host and port with GIO, to
/// learn why a network source failed: GStreamer's HTTP source reports a
/// refused connection or an unknown host only as a generic stream error.
public enum ConnectionCheck {
    public enum Outcome: Sendable, Equatable {
        case connected
        case hostNotFound
        case connectionRefused
        case networkUnreachable
        case timedOut
        case failed(GLibError)
    }

    /// Connects to `uri` (port 80 or 443 unless it names one), giving up after
    /// `timeout`. Runs on the helper thread; cancelling the task cancels it.
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

/// One connection attempt; its GIO objects live on the helper thread.
private final class Attempt: Sendable {
    private struct State {
        var continuation: CheckedContinuation<ConnectionCheck.Outcome, Never>?
        var isCancelled = false
    }

    private let state = Mutex(State())
    /// GCancellable is thread-safe; kept as an address because pointers may
    /// not be shared across threads in Swift's eyes. Freed in deinit.
    private let cancellable = UInt(bitPattern: g_cancellable_new())

    deinit { g_object_unref(UnsafeMutableRawPointer(bitPattern: cancellable)) }

    private var cancellablePointer: UnsafeMutablePointer<GCancellable> {
        UnsafeMutablePointer(bitPattern: cancellable)!
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
            let box = Unmanaged.passRetained(self).toOpaque()
            g_socket_client_connect_to_uri_async(client, uri, defaultPort, cancellablePointer, { source, result, userData in
                let attempt = Unmanaged<Attempt>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let client = UnsafeMutableRawPointer(source!).assumingMemoryBound(to: GSocketClient.self)
                if let connection = g_socket_client_connect_to_uri_finish(client, result, &error) {
                    g_io_stream_close(UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self), nil, nil)
                    g_object_unref(connection)
                    attempt.finish(.connected)
                } else {
                    attempt.finish(ConnectionCheck.outcome(GLibError(consuming: error!)))
                }
            }, box)
            g_object_unref(client)
        }
    }

    func cancel() {
        state.withLock { $0.isCancelled = true }
        g_cancellable_cancel(cancellablePointer)
    }

    private func finish(_ outcome: ConnectionCheck.Outcome) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
