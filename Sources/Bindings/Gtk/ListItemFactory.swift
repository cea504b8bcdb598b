import CGLib
import CGtk

/// The Swift side of one recycled list row: its widgets, filled in by
/// `bind` with whatever item the row shows now, and cleared by `unbind`.
@MainActor
public protocol ListRowController: AnyObject {
    associatedtype Payload
    /// The row's top widget, given to GTK once, at setup.
    var root: Widget { get }
    func bind(_ payload: Payload)
    func unbind()
}

extension ListRowController {
    public func unbind() {}
}

/// Keeps a row controller alive for as long as its GtkListItem.
private final class RowBox {
    let controller: AnyObject
    init(_ controller: AnyObject) { self.controller = controller }
}

private let rowQuark = g_quark_from_static_string("trackcast-row")

private let releaseRow: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<RowBox>.fromOpaque(data).release()
}

/// A GtkSignalListItemFactory that makes one Swift row controller per
/// recycled row. GTK creates rows only for what is on screen (plus a few
/// around it) and binds them to items as the list scrolls, so a list of
/// 100,000 episodes costs a screenful of widgets.
@MainActor
public final class ListItemFactory: ObjectRef {
    /// Counted outside the wrapper: GTK keeps the factory (and its handlers)
    /// alive after the Swift wrapper may be gone.
    private final class Counter { var binds = 0 }
    private let counter = Counter()

    /// How many rows have been bound since creation; for tests and diagnostics.
    public var bindCount: Int { counter.binds }

    public init<Row: ListRowController>(_ makeRow: @escaping @MainActor () -> Row) {
        super.init(gtk_signal_list_item_factory_new(), transfer: .full)
        onSignal("setup") { listItem in
            guard let listItem else { return }
            let row = makeRow()
            gtk_list_item_set_child(OpaquePointer(listItem), row.root.widget)
            g_object_set_qdata_full(listItem.assumingMemoryBound(to: GObject.self), rowQuark,
                                    Unmanaged.passRetained(RowBox(row)).toOpaque(), releaseRow)
        }
        onSignal("bind") { [counter] listItem in
            guard let listItem, let row: Row = Self.row(of: listItem),
                  let item = gtk_list_item_get_item(OpaquePointer(listItem)),
                  let payload = ListStore<Row.Payload>.payload(ofItem: item) else { return }
            counter.binds += 1
            row.bind(payload)
        }
        onSignal("unbind") { listItem in
            guard let listItem, let row: Row = Self.row(of: listItem) else { return }
            row.unbind()
        }
        onSignal("teardown") { listItem in
            guard let listItem else { return }
            // Drops the controller (and its widget references) with the row.
            g_object_set_qdata(listItem.assumingMemoryBound(to: GObject.self), rowQuark, nil)
        }
    }

    private static func row<Row>(of listItem: UnsafeMutableRawPointer) -> Row? {
        guard let data = g_object_get_qdata(listItem.assumingMemoryBound(to: GObject.self), rowQuark) else {
            return nil
        }
        return Unmanaged<RowBox>.fromOpaque(data).takeUnretainedValue().controller as? Row
    }
}
