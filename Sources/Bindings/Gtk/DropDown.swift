import CGLib
import CGtk

/// GtkDropDown choosing one of a fixed list of strings.
@MainActor
public final class DropDown: Widget {
    /// `accessibleLabel` names the choice for assistive technologies, and as
    /// a tooltip where nothing visible names it; a drop-down in a row beside
    /// the row's title (`labelledByRow`) has no tooltip to repeat that title.
    public init(choices: [String], accessibleLabel: String, labelledByRow: Bool = false) {
        super.init(gtk_drop_down_new(Self.stringList(choices), nil), transfer: .full)
        if !labelledByRow { gtk_widget_set_tooltip_text(widget, accessibleLabel) }
        setAccessibleLabel(accessibleLabel)
    }

    public var selectedIndex: Int {
        get { Int(gtk_drop_down_get_selected(opaque)) }
        set { gtk_drop_down_set_selected(opaque, guint(newValue)) }
    }

    /// Replaces the choices; the first is selected.
    public func setChoices(_ choices: [String]) {
        let list = Self.stringList(choices)
        // The drop-down takes its own reference.
        gtk_drop_down_set_model(opaque, list)
        g_object_unref(UnsafeMutableRawPointer(list))
    }

    private static func stringList(_ choices: [String]) -> OpaquePointer? {
        let list = withCStringArray(choices) { array in
            gtk_string_list_new(UnsafeRawPointer(array).assumingMemoryBound(to: UnsafePointer<CChar>?.self))
        }
        return UnsafeMutableRawPointer(list).map { OpaquePointer($0) }
    }

    public func onSelectionChanged(_ handler: @escaping @MainActor () -> Void) {
        onSignal("notify::selected") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}
