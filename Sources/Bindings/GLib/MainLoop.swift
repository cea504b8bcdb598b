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
