import CGLib

/// Retains a Swift value for as long as a GObject carries it as qdata.
private final class PayloadBox {
    let value: Any
    init(_ value: Any) { self.value = value }
}

private let payloadQuark = g_quark_from_static_string("trackcast-payload")

private let releasePayload: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<PayloadBox>.fromOpaque(data).release()
}

/// A `GListStore` whose items are plain GObjects, each carrying one Swift
/// value. GTK's list widgets see an ordinary `GListModel`; Swift code sees
/// typed values. An item's value is released when GLib finalises the item:
/// once it has left the store and no list row holds it any more.
@MainActor
public final class ListStore<Payload>: ObjectRef {
    public init() {
        super.init(g_list_store_new(tc_type_object()), transfer: .full)
    }

    private var store: OpaquePointer { opaque }

    /// The model, for handing to a selection model or a list widget.
    public var listModel: OpaquePointer { opaque }

    public var count: Int { Int(g_list_model_get_n_items(listModel)) }

    /// The value of the item at `position`, or nil past the end.
    public func payload(at position: Int) -> Payload? {
        guard position >= 0, position < count, let item = g_list_model_get_item(listModel, guint(position)) else {
            return nil
        }
        defer { g_object_unref(item) }
        return Self.payload(ofItem: item)
    }

    /// The value a list item's GObject carries, e.g. the item a row is bound to.
    public static func payload(ofItem item: UnsafeMutableRawPointer) -> Payload? {
        guard let data = g_object_get_qdata(item.assumingMemoryBound(to: GObject.self), payloadQuark) else {
            return nil
        }
        return Unmanaged<PayloadBox>.fromOpaque(data).takeUnretainedValue().value as? Payload
    }

    public func append(_ payload: Payload) {
        let item = Self.makeItem(payload)
        defer { g_object_unref(item) }
        g_list_store_append(store, item)
    }

    /// Replaces `removing` items at `position` with `payloads`, in one change
    /// the list widgets see as one `items-changed`.
    public func splice(at position: Int, removing: Int, inserting payloads: [Payload]) {
        var items = payloads.map { Optional(Self.makeItem($0)) }
        defer { items.forEach { g_object_unref($0) } }
        items.withUnsafeMutableBufferPointer { buffer in
            g_list_store_splice(store, guint(position), guint(removing), buffer.baseAddress, guint(buffer.count))
        }
    }

    /// Replaces the whole contents.
    public func replaceAll(with payloads: [Payload]) {
        splice(at: 0, removing: count, inserting: payloads)
    }

    public func remove(at position: Int) {
        g_list_store_remove(store, guint(position))
    }

    private static func makeItem(_ payload: Payload) -> gpointer {
        let item = g_object_new_with_properties(tc_type_object(), 0, nil, nil)!
        g_object_set_qdata_full(item, payloadQuark, Unmanaged.passRetained(PayloadBox(payload)).toOpaque(),
                                releasePayload)
        return gpointer(item)
    }
}
