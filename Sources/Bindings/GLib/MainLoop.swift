import CGLib
import CTrackcastSupport

/// Makes the GLib main loop drive Swift's main actor.
///
/// Swift runs main-actor jobs on libdispatch's main queue, which
/// `g_main_loop_run` and `g_application_run` never drain by themselves. The
/// bridge watches the queue's eventfd from the default main context and
/// drains the queue whenever work arrives, so `Task { @MainActor in }`,
/// `await` resumptions on the main actor and `Task.sleep` all work while
/// GLib runs the main thread. Install it once, on the main thread, before
/// the loop runs; the process must not also call `dispatchMain()`.
public enum MainQueueBridge {
    @MainActor private static var sourceID: guint = 0

    @MainActor
    public static func install() {
        guard sourceID == 0 else { return }
        sourceID = tc_main_queue_bridge_install()
    }

    /// How many times the bridge has woken to drain the queue.
    public static var wakeups: UInt64 { UInt64(tc_main_queue_bridge_wakeups()) }
}

/// A `GMainLoop` on the default main context.
public final class MainLoop {
    private let loop: OpaquePointer

    public init() { loop = g_main_loop_new(nil, 0) }
    deinit { g_main_loop_unref(loop) }

    /// Runs until `quit()`.
    public func run() { g_main_loop_run(loop) }
    public func quit() { g_main_loop_quit(loop) }
}

/// A repeating or one-shot GLib timeout on the default main context.
/// Cancel it with `cancel()`; a one-shot timeout also ends itself.
@MainActor
public final class Timeout {
    public typealias Handler = @MainActor () -> Bool

    private var sourceID: guint

    /// Calls `handler` every `milliseconds` until it returns false.
    public init(milliseconds: UInt32, _ handler: @escaping Handler) {
        let box = Unmanaged.passRetained(SignalHandlerBox<Handler>(handler)).toOpaque()
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { userData in
            let handler = SignalHandlerBox<Handler>.from(userData).handler
            return MainActor.assumeIsolated { handler() } ? 1 : 0
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
        })
    }

    /// Calls `handler` once after `milliseconds`.
    public static func once(after milliseconds: UInt32, _ handler: @escaping @MainActor () -> Void) {
        _ = Timeout(milliseconds: milliseconds) { handler(); return false }
    }

    public func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }
}

/// Work for when the main loop has nothing more urgent: GLib's default idle
/// priority, below input, timers, redraws and the main actor's queue.
@MainActor
public enum Idle {
    public static func once(_ handler: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(SignalHandlerBox<@MainActor () -> Void>(handler)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { userData in
            let handler = SignalHandlerBox<@MainActor () -> Void>.from(userData).handler
            MainActor.assumeIsolated { handler() }
            return 0
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
        })
    }
}
