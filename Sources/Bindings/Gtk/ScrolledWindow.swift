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
