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

    /// Ticks under the trough at `below` (e.g. where chapters start) and
    /// over it at `above` (where interstitials begin and end), in place of
    /// any set before.
    public func setMarks(below: [Double], above: [Double] = []) {
        let scale: UnsafeMutablePointer<GtkScale> = pointer()
        gtk_scale_clear_marks(scale)
        for value in below { gtk_scale_add_mark(scale, value, GTK_POS_BOTTOM, nil) }
        for value in above { gtk_scale_add_mark(scale, value, GTK_POS_TOP, nil) }
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

    /// Calls `began` when a pointer button or touch goes down on the slider
    /// and `ended` when it comes up (or the grab is lost): a drag's bounds,
    /// between which `onUserChange` reports its steps. Seen in the capture
    /// phase and passed on, so the range's own gestures still move it.
    public func onDrag(began: @escaping @MainActor () -> Void, ended: @escaping @MainActor () -> Void) {
        let controller: OpaquePointer = gtk_event_controller_legacy_new()
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        typealias Handler = @MainActor (GdkEventType) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, userData in
            guard let event else { return 0 }
            let handler = SignalHandlerBox<Handler>.from(userData).handler
            let type = gdk_event_get_event_type(event)
            MainActor.assumeIsolated { handler(type) }
            return 0
        }
        let wrapped = ObjectRef(controller, transfer: .full)
        _ = wrapped.connect(signal: "event", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                        box: SignalHandlerBox<Handler>({ type in
                            switch type {
                            case GDK_BUTTON_PRESS, GDK_TOUCH_BEGIN: began()
                            case GDK_BUTTON_RELEASE, GDK_TOUCH_END, GDK_TOUCH_CANCEL, GDK_GRAB_BROKEN: ended()
                            default: break
                            }
                        }))
        gtk_widget_add_controller(widget, wrapped.opaque.retained())
    }
}
