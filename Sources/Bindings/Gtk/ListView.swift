import CGLib
import CGtk

/// GtkListView over a `ListStore`, without selection: rows are activated
/// (clicked, or Enter), not selected.
@MainActor
public final class ListView: Widget {
    public init<Payload>(model: ListStore<Payload>, factory: ListItemFactory) {
        let selection = gtk_no_selection_new(model.listModel.retained())
        super.init(gtk_list_view_new(selection, factory.opaque.retained()), transfer: .full)
        gtk_list_view_set_single_click_activate(opaque, 1)
    }

    /// The handler receives the position of the activated row.
    public func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        onPositionSignal("activate") { position in handler(Int(position)) }
    }

    /// Cards-style separators between rows.
    public func showSeparators(_ shown: Bool) { gtk_list_view_set_show_separators(opaque, shown ? 1 : 0) }
}

/// GtkGridView over a `ListStore`: tiles that flow into as many columns as fit.
@MainActor
public final class GridView: Widget {
    public init<Payload>(model: ListStore<Payload>, factory: ListItemFactory) {
        let selection = gtk_no_selection_new(model.listModel.retained())
        super.init(gtk_grid_view_new(selection, factory.opaque.retained()), transfer: .full)
        gtk_grid_view_set_single_click_activate(opaque, 1)
    }

    public func setColumns(minimum: UInt32, maximum: UInt32) {
        gtk_grid_view_set_min_columns(opaque, minimum)
        gtk_grid_view_set_max_columns(opaque, maximum)
    }

    /// The handler receives the position of the activated tile.
    public func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        onPositionSignal("activate") { position in handler(Int(position)) }
    }
}

extension OpaquePointer {
    /// An extra reference, for C functions that take ownership ("transfer full")
    /// of an object a wrapper keeps owning too.
    func retained() -> OpaquePointer {
        g_object_ref(UnsafeMutableRawPointer(self))
        return self
    }
}
