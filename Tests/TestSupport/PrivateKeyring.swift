import Foundation

/// A D-Bus session bus of a test's own, with a real GNOME Keyring on it when
/// asked for, all under one temporary folder. The bus activates nothing: the
/// test session's bus would start gnome-keyring-daemon through its .service
/// file with the real HOME, and so touch the user's own keyring, and a bus
/// without the keyring could not be had there. The daemon is started with
/// `--unlock` and a password on its standard input, so its login keyring is
/// made and unlocked without a prompt, under this folder's XDG_DATA_HOME.
public final class PrivateKeyring: Sendable {
    public let folder: URL
    /// The bus's address (DBUS_SESSION_BUS_ADDRESS).
    public let address: String
    private let bus: ChildProcess
    private let daemon: ChildProcess?

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the bus offers.
    public enum State: Sendable {
        /// No Secret Service at all.
        case absent
        /// GNOME Keyring with its login keyring unlocked.
        case unlocked
        /// GNOME Keyring whose login keyring exists but is locked, with no
        /// prompter to unlock it: a lookup finds nothing, a store fails.
        case locked
    }

    /// Starts the bus, and the keyring on it in `state`; waits (up to 10 s
    /// each) until the bus listens and the keyring owns its name.
    public init(_ state: State) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-keyring-\(UUID())")
        let runtime = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let socket = folder.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let configuration = folder.appendingPathComponent("bus.conf")
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8).write(to: configuration)
        bus = try ChildProcess(URL(fileURLWithPath: "/usr/bin/dbus-daemon"),
                               arguments: ["--config-file=\(configuration.path)", "--nofork"])
        guard await bus.waitFor(timeout: .seconds(10), { _ in FileManager.default.fileExists(atPath: socket) }) else {
            bus.terminate()
            throw StartError(description: "dbus-daemon did not listen: \(bus.standardError)")
        }
        do {
            switch state {
            case .absent:
                daemon = nil
            case .unlocked:
                daemon = try await Self.startDaemon(folder, address: address, unlocking: true)
            case .locked:
                // The login keyring is made by an unlocked start; a second
                // start without the password finds it locked.
                let maker = try await Self.startDaemon(folder, address: address, unlocking: true)
                maker.terminate()
                _ = maker.waitUntilExit()
                daemon = try await Self.startDaemon(folder, address: address, unlocking: false)
            }
        } catch {
            bus.terminate()
            _ = bus.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private static func startDaemon(_ folder: URL, address: String, unlocking: Bool) async throws -> ChildProcess {
        let environment = isolated(folder, address: address)
        let started = try ChildProcess(URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon"),
                                       arguments: ["--foreground", "--components=secrets"] + (unlocking ? ["--unlock"] : []),
                                       environment: environment, input: unlocking ? Data("test password".utf8) : nil)
        var owned = false
        for _ in 0..<50 where !owned && started.isRunning {
            let answer = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
                "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.secrets",
            ], environment: environment)
            owned = answer.standardOutput.contains("true")
            if !owned { try await Task.sleep(for: .milliseconds(200)) }
        }
        guard owned else {
            started.terminate()
            _ = started.waitUntilExit()
            throw StartError(description: "gnome-keyring-daemon did not take org.freedesktop.secrets: \(started.standardError)")
        }
        return started
    }

    /// What a child needs to use this bus, with HOME and the XDG folders in
    /// the temporary folder too.
    public var environment: [String: String?] { Self.isolated(folder, address: address) }

    private static func isolated(_ folder: URL, address: String) -> [String: String?] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": folder.appendingPathComponent("home").path,
         "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
         "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
         "XDG_RUNTIME_DIR": folder.appendingPathComponent("run").path]
    }

    /// The secret the keyring holds under Trackcast's schema and `name`,
    /// read from outside with secret-tool; nil when it holds none.
    public func lookup(_ name: String) async throws -> String? {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/secret-tool"), arguments: [
            "lookup", "xdg:schema", "org.trackcast.Trackcast.Secret", "name", name,
        ], environment: environment)
        return result.status == 0 ? result.standardOutput : nil
    }

    /// GSettings' keyfile backend under this folder (GSETTINGS_BACKEND=keyfile
    /// in `environment`): the file a child's settings are kept in.
    public var settingsFile: URL { folder.appendingPathComponent("config/glib-2.0/settings/keyfile") }

    /// Ends the keyring and the bus and removes the folder.
    public func stop() {
        daemon?.terminate()
        _ = daemon?.waitUntilExit()
        bus.terminate()
        _ = bus.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
