import CGLib
import Glibc

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

    /// Runs the default main context until `isDone` or `timeout`, whichever
    /// comes first; returns whether `isDone`. For work that must finish
    /// after the main loop has ended (saving at shutdown), whose tasks the
    /// main-queue bridge runs from this context.
    @MainActor
    @discardableResult
    public static func iterate(until isDone: () -> Bool, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isDone(), ContinuousClock.now < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
        return isDone()
    }
}
