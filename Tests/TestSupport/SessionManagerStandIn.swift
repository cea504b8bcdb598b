import Bindings

/// Owns `org.gnome.SessionManager` on the test's private session bus and
/// answers the two calls GTK's `gtk_application_inhibit` makes, noting each:
/// the test session has no GNOME session to ask. Needs the `GLibPump`.
@MainActor
public final class SessionManagerStandIn: DBusObjectHandler {
    public struct Inhibition: Equatable, Sendable {
        public let applicationID: String
        public let reason: String
        public let flags: UInt32
        public let cookie: UInt32
    }

    public private(set) var inhibitions: [Inhibition] = []
    public private(set) var released: [UInt32] = []
    /// The application IDs that registered as session clients (GTK's `register-session`).
    public private(set) var registeredClients: [String] = []
    public private(set) var ownsName = false
    private var export: DBusObjectExport?
    private var nextCookie: UInt32 = 41

    /// The inhibitions not released yet.
    public var held: [Inhibition] { inhibitions.filter { !released.contains($0.cookie) } }

    public init() throws {
        GLibPump.start()
        let export = try DBusObjectExport(busName: "org.gnome.SessionManager", objectPath: "/org/gnome/SessionManager",
                                          introspectionXML: Self.introspection, handler: self)
        export.onNameOwnership = { [weak self] owned in self?.ownsName = owned }
        export.start()
        self.export = export
    }

    public func stop() { export?.stop() }

    public func handleCall(interface: String, method: String, parameters: Variant) -> DBusReply {
        let arguments = parameters.children
        switch method {
        case "Inhibit":
            nextCookie += 1
            inhibitions.append(Inhibition(applicationID: arguments[0].string ?? "", reason: arguments[2].string ?? "",
                                          flags: arguments[3].uint32 ?? 0, cookie: nextCookie))
            return .value(Variant(tuple: [Variant(nextCookie)]))
        case "Uninhibit":
            released.append(arguments[0].uint32 ?? 0)
            return .value(nil)
        case "RegisterClient":
            registeredClients.append(arguments[0].string ?? "")
            return .value(Variant(tuple: [Variant(objectPath: Self.clientPath)!]))
        case "UnregisterClient":
            return .value(nil)
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: method)
        }
    }

    /// Sends the registered clients what gnome-session sends at logout:
    /// `QueryEndSession` (may the session end?), then `EndSession` (it ends).
    public func endSession(_ step: String) {
        let arguments = step == "Stop" ? nil : Variant(tuple: [Variant(UInt32(0))])
        export?.emitSignal(interface: "org.gnome.SessionManager.ClientPrivate", name: step, arguments: arguments,
                           from: Self.clientPath)
    }

    /// Where a registered client hears the session's signals; one for all here.
    private static let clientPath = "/org/gnome/SessionManager/Client1"

    public func property(interface: String, name: String) -> Variant? { nil }
    public func setProperty(interface: String, name: String, value: Variant) -> Bool { false }

    private static let introspection = """
        <node>
          <interface name="org.gnome.SessionManager">
            <method name="Inhibit">
              <arg type="s" name="app_id" direction="in"/>
              <arg type="u" name="toplevel_xid" direction="in"/>
              <arg type="s" name="reason" direction="in"/>
              <arg type="u" name="flags" direction="in"/>
              <arg type="u" name="inhibit_cookie" direction="out"/>
            </method>
            <method name="Uninhibit">
              <arg type="u" name="inhibit_cookie" direction="in"/>
            </method>
            <method name="RegisterClient">
              <arg type="s" name="app_id" direction="in"/>
              <arg type="s" name="client_startup_id" direction="in"/>
              <arg type="o" name="client_id" direction="out"/>
            </method>
            <method name="UnregisterClient">
              <arg type="o" name="client_id" direction="in"/>
            </method>
          </interface>
        </node>
        """
}
