import CGLib
import Glibc

/// A Unix signal (SIGINT, SIGTERM) delivered as an ordinary event on the main
/// loop through `g_unix_signal_add`, so the handler may do anything, unlike a
/// raw signal handler. Lives until `cancel()`.
@MainActor
public final class UnixSignalWatch {
    public typealias Handler = @MainActor () -> Void

    private var sourceID: guint

    public init(signal: Int32, _ handler: @escaping Handler) {
        // A process can start with the signal blocked (Foundation's Process
        // passes on the blocked mask of the thread that spawned it); blocked,
        // it would never reach GLib's handler. Unblock it on this thread.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signal)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let box = Unmanaged.passRetained(SignalHandlerBox<Handler>(handler)).toOpaque()
        sourceID = g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { userData in
            let handler = SignalHandlerBox<Handler>.from(userData).handler
            MainActor.assumeIsolated { handler() }
            return 1
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
        })
    }

    public func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }
}
