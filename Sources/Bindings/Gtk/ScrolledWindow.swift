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
