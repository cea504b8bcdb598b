import CGLib

/// A thread of its own that runs a GLib main loop on a private main context,
/// for GStreamer and GIO work that must not wait for (or block) the main
/// thread: discoverer probes, connection checks. It lives as long as the
/// process.
///
/// `@unchecked Sendable`: the only state is the GMainContext pointer, which
/// never changes, and GLib documents attaching sources to a context as safe
/// from any thread.
final class ContextThread: @unchecked Sendable {
    static let shared = ContextThread(name: "tc-gst-helper")

    private let context: OpaquePointer

    private init(name: String) {
        context = g_main_context_new()
        let started = g_thread_new(name, { data in
            let context = OpaquePointer(data)
            // Sources created on this thread (GstDiscoverer's bus watch,
            // GIO callbacks) attach to the thread-default context.
            g_main_context_push_thread_default(context)
            g_main_loop_run(g_main_loop_new(context, 0))
            return nil
        }, UnsafeMutableRawPointer(context))
        g_thread_unref(started)
    }

    /// Runs `work` on the thread, later, never inside the caller even when
    /// the caller is on the thread itself (so it is safe from a signal handler).
    func schedule(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(SignalHandlerBox<@Sendable () -> Void>(work)).toOpaque()
        let source = g_idle_source_new()
        g_source_set_callback(source, { userData in
            SignalHandlerBox<@Sendable () -> Void>.from(userData).handler()
            return 0
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
        })
        g_source_attach(source, context)
        g_source_unref(source)
    }
}
