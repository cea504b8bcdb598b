import CGLib

/// A client of the session bus that keeps its connection open across calls,
/// as a desktop shell keeps its one: connecting and leaving are paid once,
/// not at every call as a `gdbus call` process pays them.
@MainActor
public final class BusClient {
    private let connection: OpaquePointer

    public init() throws {
        let connection = try GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
        guard let connection else { throw GLibError(domain: "BusClient", code: 0, message: "no session bus") }
        self.connection = connection
    }

    /// Calls `method` and waits for its reply (blocking this thread: a
    /// client's, never the app's).
    @discardableResult
    public func call(destination: String, path: String, interface: String, method: String,
                     arguments: Variant? = nil, timeout: Duration = .seconds(5)) throws -> Variant? {
        let milliseconds = Int32(timeout.components.seconds * 1000)
        let reply = try GLibError.check {
            g_dbus_connection_call_sync(connection, destination, path, interface, method,
                                        arguments?.pointer, nil, G_DBUS_CALL_FLAGS_NONE, milliseconds, nil, $0)
        }
        return reply.map { Variant(taking: $0) }
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}
