import CGLib

/// The default main context, for code that must drive it by hand.
public enum MainContext {
    /// Dispatches what is ready on the default main context without waiting;
    /// returns whether anything was dispatched. For tests, whose main thread
    /// runs libdispatch's main queue instead of a GLib main loop.
    @MainActor
    @discardableResult
    public static func dispatchPending() -> Bool {
        g_main_context_iteration(nil, 0) != 0
    }
}
