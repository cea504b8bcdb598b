import CGLib
import CGtk

/// GtkDropDown choosing one of a fixed list of strings.
@MainActor
public final class DropDown: Widget {
    public init(choices: [String], accessibleLabel: String) {
        let list = withCStringArray(choices) { array in
            gtk_string_list_new(UnsafeRawPointer(array).assumingMemoryBound(to: UnsafePointer<CChar>?.self))
        }
        super.init(gtk_drop_down_new(UnsafeMutableRawPointer(list).map { OpaquePointer($0) }, nil), transfer: .full)
        gtk_widget_set_tooltip_text(widget, accessibleLabel)
        setAccessibleLabel(accessibleLabel)
    }

    public var selectedIndex: Int {
        get { Int(gtk_drop_down_get_selected(opaque)) }
        set { gtk_drop_down_set_selected(opaque, guint(newValue)) }
    }

    public func onSelectionChanged(_ handler: @escaping @MainActor () -> Void) {
        onSignal("notify::selected") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}
