import CGLib
import CGtk

/// A GtkDropTarget for files (as URIs) and text (a pasted or dragged link).
@MainActor
public final class DropTarget: EventController {
    public enum Dropped {
        case uris([String])
        case text(String)
    }

    public typealias DropHandler = @MainActor (Dropped) -> Bool

    public init(_ handler: @escaping DropHandler) {
        super.init(gtk_drop_target_new(0, GDK_ACTION_COPY), transfer: .full)
        var types = [gdk_file_list_get_type(), tc_type_string()]
        gtk_drop_target_set_gtypes(opaque, &types, gsize(types.count))

        // "drop": (GtkDropTarget *, const GValue *, double x, double y, gpointer) -> gboolean
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, gdouble, gdouble, gpointer?) -> gboolean = {
            _, value, _, _, userData in
            let handler = SignalHandlerBox<DropHandler>.from(userData).handler
            guard let value, let dropped = DropTarget.read(value) else { return 0 }
            return MainActor.assumeIsolated { handler(dropped) } ? 1 : 0
        }
        connect(signal: "drop", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<DropHandler>(handler))
    }

    private nonisolated static func read(_ value: UnsafePointer<GValue>) -> Dropped? {
        if g_type_check_value_holds(value, tc_type_string()) != 0 {
            return g_value_get_string(value).map { .text(String(cString: $0)) }
        }
        guard g_type_check_value_holds(value, gdk_file_list_get_type()) != 0,
              let list = g_value_get_boxed(value) else { return nil }
        var uris: [String] = []
        var node = gdk_file_list_get_files(OpaquePointer(list))
        let head = node
        while let current = node {
            if let file = current.pointee.data, let uri = g_file_get_uri(OpaquePointer(file)) {
                uris.append(String(cString: uri))
                g_free(uri)
            }
            node = current.pointee.next
        }
        g_slist_free(head)
        return .uris(uris)
    }
}
