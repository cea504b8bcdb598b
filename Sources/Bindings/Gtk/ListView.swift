import CGLib
import CGtk

/// GtkListView over a `ListStore`, without selection: rows are activated
/// (clicked, or Enter), not selected.
@MainActor
public final class ListView: Widget {
    private let factory: ListItemFactory

    public init<Payload>(model: ListStore<Payload>, factory: ListItemFactory) {
        self.factory = factory
        let selection = gtk_no_selection_new(model.listModel.retained())
        super.init(gtk_list_view_new(selection, factory.opaque.retained()), transfer: .full)
        gtk_list_view_set_single_click_activate(opaque, 1)
    }

    /// Keeps row widgets only while the list is on screen. GTK 4.8 keeps up to
    /// 200 rows alive whatever the list's height, mapped or not, and a row of
    /// buttons costs tens of kilobytes; a hidden page's list gives its factory
    /// back, so GTK tears its rows down (the model and the scroll position stay),
    /// and takes it again when shown, before the next frame is laid out.
    public func keepRowsOnlyWhileMapped() {
        // The handlers, which live as long as the widget, keep the factory
        // alive: while hidden, GTK holds no reference to it, and the Swift
        // wrapper of the view may be gone.
        let view = opaque, factory = factory
        if !isMapped { gtk_list_view_set_factory(view, nil) }
        onSignal("map") { gtk_list_view_set_factory(view, factory.opaque) }
        onSignal("unmap") { gtk_list_view_set_factory(view, nil) }
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
    private let factory: ListItemFactory

    public init<Payload>(model: ListStore<Payload>, factory: ListItemFactory) {
        self.factory = factory
        let selection = gtk_no_selection_new(model.listModel.retained())
        super.init(gtk_grid_view_new(selection, factory.opaque.retained()), transfer: .full)
        gtk_grid_view_set_single_click_activate(opaque, 1)
    }

    /// As `ListView.keepRowsOnlyWhileMapped`: a grid keeps 30 rows of tiles.
    public func keepRowsOnlyWhileMapped() {
        // The handlers, which live as long as the widget, keep the factory
        // alive: while hidden, GTK holds no reference to it, and the Swift
        // wrapper of the view may be gone.
        let view = opaque, factory = factory
        if !isMapped { gtk_grid_view_set_factory(view, nil) }
        onSignal("map") { gtk_grid_view_set_factory(view, factory.opaque) }
        onSignal("unmap") { gtk_grid_view_set_factory(view, nil) }
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
