import CGLib
import CGtk

/// AdwApplication: single instance through D-Bus, actions exported on the
/// bus, files and URIs handed over by later launches through `open`.
@MainActor
public final class Application: ObjectRef {
    public typealias OpenHandler = @MainActor ([String]) -> Void

    /// - Parameter handlesOpen: accept files and URIs on the command line.
    public init(id: String, handlesOpen: Bool) {
        let flags = handlesOpen ? G_APPLICATION_HANDLES_OPEN : G_APPLICATION_DEFAULT_FLAGS
        super.init(adw_application_new(id, flags), transfer: .full)
    }

    private var application: UnsafeMutablePointer<GApplication> { pointer(as: GApplication.self) }

    public func onStartup(_ handler: @escaping @MainActor () -> Void) { onSignal("startup", handler) }

    /// Launched with no files, or re-launched while running.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) { onSignal("activate", handler) }

    /// The main loop has ended, whoever ended it (`quit`, the session, the
    /// last window closing); the process exits when the handler returns.
    public func onShutdown(_ handler: @escaping @MainActor () -> Void) { onSignal("shutdown", handler) }

    /// The desktop session is about to end (logout, shutdown); only sent
    /// when `registersSession` was set before `run`.
    public func onQueryEnd(_ handler: @escaping @MainActor () -> Void) { onSignal("query-end", handler) }

    /// Registers with the session manager at start-up, to hear `query-end`.
    /// Set before `run`; without a session manager GTK warns that it
    /// could not register.
    public var registersSession: Bool {
        get { (try? property("register-session", as: Bool.self)) ?? false }
        set { try? setProperty("register-session", newValue) }
    }

    /// Launched with files or URIs (in this process or a later one); the
    /// handler receives them as URIs.
    public func onOpen(_ handler: @escaping OpenHandler) {
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafePointer<gchar>?, gpointer?) -> Void = { _, files, count, _, userData in
            let handler = SignalHandlerBox<OpenHandler>.from(userData).handler
            let uris = (0..<Int(count)).map { index -> String in
                let uri = g_file_get_uri(files![index])!
                defer { g_free(uri) }
                return String(cString: uri)
            }
            MainActor.assumeIsolated { handler(uris) }
        }
        connect(signal: "open", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<OpenHandler>(handler))
    }

    public func addAction(_ action: SimpleAction, accelerators: [String] = []) {
        g_action_map_add_action(OpaquePointer(objectPointer), action.opaque)
        if !accelerators.isEmpty { setAccelerators(accelerators, forAction: "app.\(action.name)") }
    }

    /// Adds any GAction, e.g. one made by `Settings.action(forKey:)`.
    public func addAction(_ action: ObjectRef) {
        g_action_map_add_action(OpaquePointer(objectPointer), action.opaque)
    }

    /// Activates one of the application's own actions, as a button or D-Bus would.
    public func activateAction(_ name: String, parameter: Variant? = nil) {
        g_action_group_activate_action(OpaquePointer(objectPointer), name, parameter?.pointer)
    }

    /// Sets the shortcuts of any detailed action, e.g. "window.close".
    public func setAccelerators(_ accelerators: [String], forAction detailedName: String) {
        withCStringArray(accelerators) { array in
            gtk_application_set_accels_for_action(pointer(as: GtkApplication.self), detailedName,
                                                  UnsafeRawPointer(array).assumingMemoryBound(to: UnsafePointer<CChar>?.self))
        }
    }

    /// Runs the main loop until the application quits; returns the exit status.
    /// `arguments` is argv: the program name, then files or URIs.
    public func run(arguments: [String]) -> Int32 {
        withCStringArray(arguments) { argv in
            g_application_run(application, Int32(arguments.count), argv)
        }
    }

    public func quit() { g_application_quit(application) }

    /// Registers on the session bus now, before `run`, to learn whether this
    /// process is the application (true; `startup` has run) or another
    /// instance already is (false; actions activated here go to it).
    public func registerIsPrimary() throws -> Bool {
        _ = try GLibError.check { g_application_register(application, nil, $0) }
        return g_application_get_is_remote(application) == 0
    }

    /// Waits until what was sent to the running instance is on the bus, so
    /// this process may exit without losing it.
    public func flush() {
        guard let connection = g_application_get_dbus_connection(application) else { return }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    /// Keeps the process running with no window open (background playback)
    /// until a matching `release()`.
    public func hold() { g_application_hold(application) }
    public func release() { g_application_release(application) }

    /// What an inhibition keeps the desktop from doing.
    public struct Inhibition: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let suspend = Inhibition(rawValue: GTK_APPLICATION_INHIBIT_SUSPEND.rawValue)
        public static let idle = Inhibition(rawValue: GTK_APPLICATION_INHIBIT_IDLE.rawValue)
    }

    /// Asks the session not to suspend or idle, for `reason` (shown to the
    /// user). Returns a cookie for `uninhibit`, or nil if the session said no
    /// or offers no way to ask. `window` may be nil (background playback).
    public func inhibit(_ what: Inhibition, window: ApplicationWindow?, reason: String) -> UInt32? {
        let cookie = gtk_application_inhibit(pointer(as: GtkApplication.self),
                                             window?.pointer(as: GtkWindow.self),
                                             GtkApplicationInhibitFlags(rawValue: what.rawValue), reason)
        return cookie == 0 ? nil : cookie
    }

    public func uninhibit(_ cookie: UInt32) { gtk_application_uninhibit(pointer(as: GtkApplication.self), cookie) }

    /// The window the user last worked in, if any is open.
    public var hasActiveWindow: Bool { gtk_application_get_active_window(pointer(as: GtkApplication.self)) != nil }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStringArray<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    var duplicates = strings.map { strdup($0) } + [nil]
    defer { duplicates.forEach { free($0) } }
    return duplicates.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
