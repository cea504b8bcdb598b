import CGLib

/// What a D-Bus method call gets back.
public enum DBusReply {
    /// Success, with the reply's arguments as a tuple, or nil for none.
    case value(Variant?)
    /// A D-Bus error, e.g. `org.freedesktop.DBus.Error.NotSupported`.
    case error(name: String, message: String)
    /// The reply once `answer` has run: for a call answered from a database
    /// or a file, work that must not hold up the main thread meanwhile.
    case later(@MainActor () async -> DBusReply)
}

/// Answers the calls made on an exported object.
@MainActor
public protocol DBusObjectHandler: AnyObject {
    /// A method call whose arguments GDBus has already checked against the
    /// introspection data, so `parameters` has the declared type.
    func handleCall(interface: String, method: String, parameters: Variant) -> DBusReply
    /// A property's current value, or nil if there is none.
    func property(interface: String, name: String) -> Variant?
    /// A write to a writable property; returns false to refuse it.
    func setProperty(interface: String, name: String, value: Variant) -> Bool
}

/// Owns a well-known name on the session bus and exports one object on it,
/// described by introspection XML. GDBus checks every call against the XML,
/// so a caller passing the wrong argument types gets
/// `org.freedesktop.DBus.Error.InvalidArgs` without reaching the handler.
/// Callbacks arrive on the main context, the thread that created the export.
@MainActor
public final class DBusObjectExport {
    public let busName: String
    public let objectPath: String
    private let nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>
    private unowned let handler: any DBusObjectHandler
    private var ownerID: guint = 0
    private var connection: OpaquePointer?
    private var registrations: [guint] = []
    private var callbacks: Unmanaged<CallbackBox>?
    /// Held when exported on the process's shared session connection (`exportOnSharedConnection`).
    private var sharedConnection: OpaquePointer?

    /// Called once the name is ours (true) or could not be had or was lost (false).
    public var onNameOwnership: (@MainActor (Bool) -> Void)?

    public init(busName: String, objectPath: String, introspectionXML: String,
                handler: any DBusObjectHandler) throws {
        self.busName = busName
        self.objectPath = objectPath
        self.handler = handler
        nodeInfo = try GLibError.check { error in g_dbus_node_info_new_for_xml(introspectionXML, error) }!
    }

    isolated deinit {
        stop()
        g_dbus_node_info_unref(nodeInfo)
    }

    /// Connects to the session bus (asynchronously) and asks for the name.
    public func start() {
        guard ownerID == 0 else { return }
        let box = Unmanaged.passRetained(CallbackBox(self))
        callbacks = box
        ownerID = g_bus_own_name(G_BUS_TYPE_SESSION, busName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                 { connection, _, data in
                                     let export = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().export
                                     let address = UInt(bitPattern: connection)
                                     MainActor.assumeIsolated {
                                         export?.busAcquired(OpaquePointer(bitPattern: address)!)
                                     }
                                 },
                                 { _, _, data in
                                     let export = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().export
                                     MainActor.assumeIsolated { export?.onNameOwnership?(true) }
                                 },
                                 { _, _, data in
                                     let export = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().export
                                     MainActor.assumeIsolated { export?.onNameOwnership?(false) }
                                 },
                                 box.toOpaque(),
                                 { data in Unmanaged<CallbackBox>.fromOpaque(data!).release() })
    }

    /// Exports the object on the process's shared session-bus connection
    /// without asking for a name: for an object served under a name that
    /// another part of the process owns on that connection, GApplication's
    /// app ID. Call it before the application registers, so that a call
    /// queued by D-Bus activation finds the object the moment the name is
    /// owned. Blocks to connect to the bus if nothing in the process has.
    public func exportOnSharedConnection() throws {
        guard ownerID == 0, sharedConnection == nil else { return }
        let connection = try GLibError.check { error in g_bus_get_sync(G_BUS_TYPE_SESSION, nil, error) }!
        sharedConnection = connection
        callbacks = Unmanaged.passRetained(CallbackBox(self))
        busAcquired(connection)
    }

    /// Unexports the object and releases the name.
    public func stop() {
        if let connection {
            for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        }
        registrations = []
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        ownerID = 0
        connection = nil
        if let sharedConnection {
            g_object_unref(UnsafeMutableRawPointer(sharedConnection))
            // Without g_bus_own_name there is no destroy notify to release the box.
            callbacks?.release()
        }
        sharedConnection = nil
        callbacks = nil
    }

    private func busAcquired(_ connection: OpaquePointer) {
        self.connection = connection
        guard let interfaces = nodeInfo.pointee.interfaces else { return }
        var index = 0
        while let interface = interfaces[index] {
            var vtable = GDBusInterfaceVTable(method_call: methodCall, get_property: getProperty,
                                              set_property: setProperty, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
            let id = withUnsafeMutablePointer(to: &vtable) { table in
                g_dbus_connection_register_object(connection, objectPath, interface, table,
                                                  callbacks?.toOpaque(), nil, nil)
            }
            if id != 0 { registrations.append(id) }
            index += 1
        }
    }

    /// Emits a signal from the object, or from another path of the same
    /// service (`path`); does nothing before the bus is connected.
    public func emitSignal(interface: String, name: String, arguments: Variant?, from path: String? = nil) {
        guard let connection else { return }
        g_dbus_connection_emit_signal(connection, nil, path ?? objectPath, interface, name, arguments?.pointer, nil)
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface`.
    public func emitPropertiesChanged(interface: String, changed: [String: Variant], invalidated: [String] = []) {
        emitSignal(interface: "org.freedesktop.DBus.Properties", name: "PropertiesChanged",
                   arguments: Variant(tuple: [Variant(interface), Variant(dictionary: changed), Variant(strings: invalidated)]))
    }

    fileprivate func dispatchCall(interface: String, method: String, parameters: Variant,
                                  invocation: OpaquePointer) {
        switch handler.handleCall(interface: interface, method: method, parameters: parameters) {
        case .value(let reply):
            // The reply waits until what the call set going has run: sending
            // it wakes the bus daemon and the caller, which on a small machine
            // took the cores the new state needed on its way to the window
            // (an MPRIS Play took 1.2–1.4 times as long as Space to show Pause).
            // Clients of a player do not wait on a reply that says nothing.
            let address = UInt(bitPattern: invocation)
            Idle.once { g_dbus_method_invocation_return_value(OpaquePointer(bitPattern: address), reply?.pointer) }
        case .error(let name, let message):
            g_dbus_method_invocation_return_dbus_error(invocation, name, message)
        case .later(let answer):
            // GDBus keeps the invocation until it is returned, exactly once, here.
            let address = UInt(bitPattern: invocation)
            Task { @MainActor in
                let invocation = OpaquePointer(bitPattern: address)
                switch await answer() {
                case .value(let reply): g_dbus_method_invocation_return_value(invocation, reply?.pointer)
                case .error(let name, let message): g_dbus_method_invocation_return_dbus_error(invocation, name, message)
                case .later: g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed",
                                                                        "a deferred reply deferred again")
                }
            }
        }
    }

    fileprivate func dispatchGet(interface: String, name: String) -> Variant? {
        handler.property(interface: interface, name: name)
    }

    fileprivate func dispatchSet(interface: String, name: String, value: Variant) -> Bool {
        handler.setProperty(interface: interface, name: name, value: value)
    }
}

/// What GDBus's callbacks carry: a weak way back to the export, so a
/// callback that arrives after the export is gone does nothing.
private final class CallbackBox {
    weak var export: DBusObjectExport?
    init(_ export: DBusObjectExport) { self.export = export }
}

private func string(_ text: UnsafePointer<gchar>?) -> String { text.map { String(cString: $0) } ?? "" }

private let methodCall: GDBusInterfaceMethodCallFunc = { _, _, _, interface, method, parameters, invocation, data in
    let export = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().export
    let interface = string(interface), method = string(method)
    let arguments = Variant(borrowing: parameters!)
    let invocationAddress = UInt(bitPattern: invocation)
    MainActor.assumeIsolated {
        guard let export else { return }
        export.dispatchCall(interface: interface, method: method, parameters: arguments,
                            invocation: OpaquePointer(bitPattern: invocationAddress)!)
    }
}

private let getProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, interface, name, error, data in
    let export = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().export
    let interface = string(interface), name = string(name)
    let value = MainActor.assumeIsolated { export?.dispatchGet(interface: interface, name: name) }
    guard let value else {
        g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue),
                            "No such property \(name)")
        return nil
    }
    // GDBus takes ownership of the returned reference.
    return g_variant_ref(value.pointer)
}

private let setProperty: GDBusInterfaceSetPropertyFunc = { _, _, _, interface, name, value, error, data in
    let export = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().export
    let interface = string(interface), name = string(name)
    let newValue = Variant(borrowing: value!)
    let accepted = MainActor.assumeIsolated { export?.dispatchSet(interface: interface, name: name, value: newValue) ?? false }
    if !accepted {
        g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_INVALID_ARGS.rawValue),
                            "\(name) does not accept that value")
    }
    return accepted ? 1 : 0
}
