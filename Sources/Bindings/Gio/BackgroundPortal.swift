import CGLib

/// xdg-desktop-portal's Background portal, which a sandboxed app asks
/// before it runs on with no window (GNOME may otherwise end it). A request
/// is answered twice: the call returns a Request object's path at once, and
/// that object's `Response` signal carries the answer when the desktop (or
/// the user) decides, which can take as long as the user does.
@MainActor
public enum BackgroundPortal {
    public enum Answer: Equatable, Sendable {
        case allowed
        case denied
        /// No portal answered, or it ended the request: the message says why.
        case failed(String)
    }

    public static let desktopBusName = "org.freedesktop.portal.Desktop"

    /// Asks to run in the background, never to be started at login.
    /// - Parameters:
    ///   - reason: shown to the user by the desktop.
    ///   - busName: the portal's; another only for a stand-in in tests.
    public static func requestBackground(reason: String, busName: String = desktopBusName) async -> Answer {
        let connection: OpaquePointer
        do {
            guard let shared = try GLibError.check({ g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }) else {
                return .failed("no session bus")
            }
            connection = shared
        } catch {
            return .failed("\(error)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let token = "trackcast\(UInt32.random(in: 0...UInt32.max))"
        // The portal names the Request after the caller and the token, so
        // the answer can be listened for before the call that causes it.
        let sender = String(cString: g_dbus_connection_get_unique_name(connection)).dropFirst()
            .replacingOccurrences(of: ".", with: "_")
        let handle = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        let options = Variant(dictionary: [
            "handle_token": Variant(token), "reason": Variant(reason), "autostart": Variant(false),
        ])
        return await withCheckedContinuation { continuation in
            let request = PortalRequest(connection: connection, continuation: continuation)
            request.listen(busName: busName, handle: handle)
            request.call(busName: busName, arguments: Variant(tuple: [Variant(""), options]))
        }
    }
}

/// One request in flight: the Response subscription and the continuation
/// that hears the first of the call's error and the signal.
@MainActor
private final class PortalRequest {
    private let connection: OpaquePointer
    private var continuation: CheckedContinuation<BackgroundPortal.Answer, Never>?
    private var subscription: guint = 0

    init(connection: OpaquePointer, continuation: CheckedContinuation<BackgroundPortal.Answer, Never>) {
        g_object_ref(UnsafeMutableRawPointer(connection))
        self.connection = connection
        self.continuation = continuation
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Subscribes to the Request's Response; the subscription keeps this
    /// object alive until it is dropped in `finish`.
    func listen(busName: String, handle: String) {
        subscription = g_dbus_connection_signal_subscribe(
            connection, busName, "org.freedesktop.portal.Request", "Response", handle, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            portalResponded, Unmanaged.passRetained(self).toOpaque(), releasePortalRequest)
    }

    /// Calls RequestBackground; an error ends the request (no portal, or it refused the call).
    func call(busName: String, arguments: Variant) {
        g_dbus_connection_call(connection, busName, "/org/freedesktop/portal/desktop",
                               "org.freedesktop.portal.Background", "RequestBackground", arguments.pointer,
                               nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, portalReplied, Unmanaged.passRetained(self).toOpaque())
    }

    /// The Response's `(u a{sv})`: 0 with `background` true is a yes; 0
    /// with it false, or 1 (the user cancelled), a no; anything else ended it.
    nonisolated static func answer(_ fields: [Variant]) -> BackgroundPortal.Answer {
        guard fields.count == 2, let code = fields[0].uint32 else { return .failed("the portal's answer made no sense") }
        switch code {
        case 0: return fields[1].dictionary?["background"]?.bool == true ? .allowed : .denied
        case 1: return .denied
        default: return .failed("the portal ended the request")
        }
    }

    func finish(_ answer: BackgroundPortal.Answer) {
        guard let continuation else { return }
        self.continuation = nil
        if subscription != 0 {
            g_dbus_connection_signal_unsubscribe(connection, subscription)
            subscription = 0
        }
        continuation.resume(returning: answer)
    }
}

// The C callbacks: GDBus calls them on the main context, which is the main actor's.

private func portalResponded(_ connection: OpaquePointer?, _ sender: UnsafePointer<gchar>?, _ path: UnsafePointer<gchar>?,
                             _ interface: UnsafePointer<gchar>?, _ signal: UnsafePointer<gchar>?,
                             _ parameters: OpaquePointer?, _ userData: gpointer?) {
    let request = Unmanaged<PortalRequest>.fromOpaque(userData!).takeUnretainedValue()
    let answer = PortalRequest.answer(parameters.map { Variant(borrowing: $0).children } ?? [])
    MainActor.assumeIsolated { request.finish(answer) }
}

private func releasePortalRequest(_ userData: gpointer?) {
    Unmanaged<PortalRequest>.fromOpaque(userData!).release()
}

private func portalReplied(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?, _ userData: gpointer?) {
    let request = Unmanaged<PortalRequest>.fromOpaque(userData!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) { g_variant_unref(reply) }
    guard let error else { return }
    let failure = GLibError(consuming: error).message
    MainActor.assumeIsolated { request.finish(.failed(failure)) }
}
