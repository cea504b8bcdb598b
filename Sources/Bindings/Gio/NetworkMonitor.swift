import CGLib

/// GIO's network monitor: whether the network is metered (a phone's
/// hotspot, a capped plan), as NetworkManager or the network portal says.
/// `GIO_USE_NETWORK_MONITOR` chooses GIO's implementation, which lets a test
/// put a NetworkManager of its own on a private system bus.
@MainActor
public final class NetworkMonitor {
    private let monitor: ObjectRef

    /// GIO's default monitor; it lives as long as the process.
    public init() {
        monitor = ObjectRef(g_network_monitor_get_default(), transfer: .none)
    }

    public var isMetered: Bool { g_network_monitor_get_network_metered(monitor.opaque) != 0 }

    /// Calls `handler` whenever `isMetered` may have changed, on the main
    /// context (GIO signals where the monitor was first made: the main thread).
    @discardableResult
    public func onMeteredChange(_ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        monitor.onSignal("notify::network-metered") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}
