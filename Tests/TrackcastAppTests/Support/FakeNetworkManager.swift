import Foundation
import TestSupport
import Testing

/// A metered or unmetered network as GIO's network monitor sees it:
/// `fake-network-manager` as NetworkManager on a system bus of the test's
/// own, which the app reads through `environment`.
final class FakeNetworkManager: Sendable {
    private let bus: ChildProcess
    private let networkManager: ChildProcess
    /// What the app needs to ask this NetworkManager (`GIO_USE_NETWORK_MONITOR=networkmanager`).
    let environment: [String: String?]

    /// Starts the bus and NetworkManager, and waits until it serves.
    init(metered: Bool) async throws {
        bus = try ChildProcess(URL(fileURLWithPath: "/usr/bin/dbus-daemon"),
                               arguments: ["--session", "--nofork", "--print-address=1"])
        try #require(await bus.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("\n") },
                     "dbus-daemon: \(bus.standardError)")
        let address = String(bus.standardOutput.prefix { $0 != "\n" })
        let state = metered ? "metered" : "unmetered"
        networkManager = try ChildProcess(BuiltProducts.executable("fake-network-manager"), arguments: [state],
                                          environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        try #require(await networkManager.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("\(state)\n") }, "fake-network-manager: \(networkManager.standardError)")
        environment = ["GIO_USE_NETWORK_MONITOR": "networkmanager", "DBUS_SYSTEM_BUS_ADDRESS": address]
    }

    /// Metered becomes unmetered and back, as when the connection changes.
    func flip() { kill(networkManager.pid, SIGUSR1) }

    func stop() {
        networkManager.terminate()
        bus.terminate()
    }
}
