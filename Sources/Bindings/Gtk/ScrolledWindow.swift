import CGLib
import CGtk

/// GtkScrolledWindow: scrolls one child. List and grid views scroll
/// themselves through it, creating rows only for what is visible.
@MainActor
public final class ScrolledWindow: Widget {
    public init(child: Widget, horizontalScrolling: Bool = false) {
        super.init(gtk_scrolled_window_new(), transfer: .full)
        gtk_scrolled_window_set_child(opaque, child.widget)
        gtk_scrolled_window_set_policy(opaque, horizontalScrolling ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
                                       GTK_POLICY_AUTOMATIC)
    }

    /// Replaces what it scrolls, e.g. a page of results with the next query's.
    public func setChild(_ child: Widget) {
        gtk_scrolled_window_set_child(opaque, child.widget)
    }

    public enum Edge: Sendable { case top, bottom }

    public typealias ScrollHandler = @MainActor (Double) -> Void

    /// The view scrolled vertically: called with its new offset from the top, in pixels.
    public func onVerticalScroll(_ handler: @escaping ScrollHandler) {
        // The scrolled window's own adjustment, which it lends its child for
        // as long as the child stays; the handler's box lives as long as it.
        let adjustment = ObjectRef(UnsafeMutableRawPointer(gtk_scrolled_window_get_vadjustment(opaque)), transfer: .none)
        // "value-changed": (GtkAdjustment *, gpointer) -> void
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { instance, userData in
            let handler = SignalHandlerBox<ScrollHandler>.from(userData).handler
            let offset = gtk_adjustment_get_value(instance?.assumingMemoryBound(to: GtkAdjustment.self))
            MainActor.assumeIsolated { handler(offset) }
        }
        adjustment.connect(signal: "value-changed", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                           box: SignalHandlerBox<ScrollHandler>(handler))
    }

    /// Takes the pointer off `child` while the view scrolls and gives it back
    /// `settle` after the last movement, as browsers do with hover. A list
    /// recycles the row under a still pointer as it scrolls, and GTK 4.8
    /// answers each time by taking hover off every ancestor up to the window
    /// and putting it back, which restyles every CSS node the window shows
    /// (see docs/BENCHMARKS.md). A click within `settle` of scrolling
    /// lands on the scrolled window and is lost, as in a browser.
    /// `changed` hears each switch (false: the pointer passes through).
    public func untargetWhileScrolling(_ child: Widget, settle: Duration = .milliseconds(150),
                                       changed: @escaping @MainActor (Bool) -> Void = { _ in }) {
        var lastMoved = ContinuousClock.now
        var isWaiting = false
        onVerticalScroll { _ in
            lastMoved = .now
            guard !isWaiting else { return }
            isWaiting = true
            child.canTarget = false
            changed(false)
            // Polled, not re-armed per movement: a wheel turn moves the view
            // every frame, and a timeout added and removed each time costs more.
            _ = Timeout(milliseconds: 50) {
                guard ContinuousClock.now - lastMoved >= settle else { return true }
                child.canTarget = true
                isWaiting = false
                changed(true)
                return false
            }
        }
    }

    /// The view was scrolled all the way to its top or bottom.
    public func onEdgeReached(_ handler: @escaping @MainActor (Edge) -> Void) {
        onIntegerSignal("edge-reached") { position in
            switch UInt32(bitPattern: position) {
            case GTK_POS_TOP.rawValue: handler(.top)
            case GTK_POS_BOTTOM.rawValue: handler(.bottom)
            default: break
            }
        }
    }
}
