import CGLib
import CGtk

/// A horizontal GtkScale, e.g. the playback position. Code sets the value
/// freely; only the user's moves reach `onUserChange`.
@MainActor
public final class Scale: Widget {
    public typealias ChangeHandler = @MainActor (Double) -> Void

    public init(accessibleLabel: String) {
        super.init(gtk_scale_new_with_range(Orientation.horizontal.gtk, 0, 1, 1), transfer: .full)
        gtk_scale_set_draw_value(pointer(as: GtkScale.self), 0)
        setAccessibleLabel(accessibleLabel)
    }

    private var range: UnsafeMutablePointer<GtkRange> { pointer() }

    public var value: Double {
        get { gtk_range_get_value(range) }
        set { gtk_range_set_value(range, newValue) }
    }

    public var upperBound: Double {
        get { gtk_adjustment_get_upper(gtk_range_get_adjustment(range)) }
        set { gtk_range_set_range(range, 0, max(newValue, 0)) }
    }

    /// Ticks under the trough at `values` (e.g. where chapters start), in
    /// place of any set before.
    public func setMarks(_ values: [Double]) {
        let scale: UnsafeMutablePointer<GtkScale> = pointer()
        gtk_scale_clear_marks(scale)
        for value in values { gtk_scale_add_mark(scale, value, GTK_POS_BOTTOM, nil) }
    }

    /// Called with the value the user moved to (dragging, clicking, keys).
    public func onUserChange(_ handler: @escaping ChangeHandler) {
        // "change-value": (GtkRange *, GtkScrollType, double, gpointer) -> gboolean
        let trampoline: @convention(c) (gpointer?, GtkScrollType, gdouble, gpointer?) -> gboolean = {
            _, _, value, userData in
            let handler = SignalHandlerBox<ChangeHandler>.from(userData).handler
            MainActor.assumeIsolated { handler(value) }
            // Not handled: GTK goes on to move the slider.
            return 0
        }
        connect(signal: "change-value", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<ChangeHandler>(handler))
    }
}
