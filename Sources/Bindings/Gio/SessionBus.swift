import CGLib

/// The session bus, for what must be known before the application runs.
@MainActor
public enum SessionBus {
    /// Whether some process owns `name` now; false without a session bus.
    /// Blocks for one round trip to the bus daemon: call it at start-up only.
    public static func nameHasOwner(_ name: String) -> Bool {
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let question = Variant(tuple: [Variant(name)])
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "NameHasOwner", question.pointer,
                                                      nil, G_DBUS_CALL_FLAGS_NONE, 1000, nil, nil) else { return false }
        return Variant(taking: reply).children.first?.bool ?? false
    }
}
