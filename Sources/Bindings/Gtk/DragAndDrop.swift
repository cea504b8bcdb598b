import CGLib
import CGtk

/// A GtkDragSource that moves a number (a row's item id) within the app.
/// Only a drop target asking for a 64-bit integer accepts it, which no
/// other program offers or asks for: rows reorder among themselves.
@MainActor
public final class NumberDragSource: EventController {
    public init() {
        super.init(gtk_drag_source_new(), transfer: .full)
        gtk_drag_source_set_actions(opaque, GDK_ACTION_MOVE)
    }

    /// What a drag starting now carries; rows are recycled, so it is set at each bind.
    public func setContent(_ number: Int64) {
        var value = GValue()
        g_value_init(&value, tc_type_int64())
        g_value_set_int64(&value, gint64(number))
        let provider = gdk_content_provider_new_for_value(&value)
        gtk_drag_source_set_content(opaque, provider)
        g_object_unref(provider)
        g_value_unset(&value)
    }
}

/// A GtkDropTarget taking the number a `NumberDragSource` carries.
@MainActor
public final class NumberDropTarget: EventController {
    /// The number and where it was dropped, in the widget's coordinates;
    /// returns whether the drop was taken.
    public typealias DropHandler = @MainActor (_ number: Int64, _ x: Double, _ y: Double) -> Bool

    public init(_ handler: @escaping DropHandler) {
        super.init(gtk_drop_target_new(tc_type_int64(), GDK_ACTION_MOVE), transfer: .full)
        // "drop": (GtkDropTarget *, const GValue *, double x, double y, gpointer) -> gboolean
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, gdouble, gdouble, gpointer?) -> gboolean = {
            _, value, x, y, userData in
            let handler = SignalHandlerBox<DropHandler>.from(userData).handler
            guard let value, g_type_check_value_holds(value, tc_type_int64()) != 0 else { return 0 }
            let number = Int64(g_value_get_int64(value))
            return MainActor.assumeIsolated { handler(number, x, y) } ? 1 : 0
        }
        connect(signal: "drop", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<DropHandler>(handler))
    }
}
