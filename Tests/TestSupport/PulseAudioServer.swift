import Foundation

/// A PulseAudio daemon of the test's own, reachable only through a socket in
/// a private runtime directory, with null sinks to play into. Clients reach
/// it through `address` (pulsesink's `server`, pactl's `--server`), so the
/// test process's environment and the user's own sound server are left alone.
public final class PulseAudioServer: Sendable {
    /// "unix:/…/native".
    public let address: String
    private let runtime: URL
    private let daemon: ChildProcess

    /// Starts the daemon with one `module-null-sink` per name in `sinks` (the
    /// first is the default) and `modules` loaded after them, e.g.
    /// "module-role-cork". No configuration file, no idle exit.
    public init(sinks: [String], modules: [String] = []) async throws {
        runtime = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-pulse-\(UUID())")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let socket = runtime.appendingPathComponent("native").path
        address = "unix:\(socket)"
        let loads = ["module-native-protocol-unix socket=\(socket) auth-anonymous=1"]
            + sinks.map { "module-null-sink sink_name=\($0)" } + modules
        daemon = try ChildProcess(URL(fileURLWithPath: "/usr/bin/pulseaudio"),
                                  arguments: ["-n", "--daemonize=no", "--exit-idle-time=-1", "--log-target=stderr"]
                                      + loads.map { "--load=\($0)" },
                                  environment: ["HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path])
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, daemon.isRunning {
            if FileManager.default.fileExists(atPath: socket),
               (try? await pactl("info").contains("Server Name")) == true { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        stop()
        throw PulseAudioError("PulseAudio did not start: \(daemon.standardError)")
    }

    deinit { stop() }

    /// Runs pactl against this server; throws with its output if it fails.
    @discardableResult
    public func pactl(_ arguments: String...) async throws -> String {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/pactl"),
                                                arguments: ["--server", address] + arguments, timeout: .seconds(20))
        guard result.status == 0 else {
            throw PulseAudioError("pactl \(arguments.joined(separator: " ")): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// The playback streams ("sink inputs") as pactl lists them in short form:
    /// index, sink index, client, driver, format.
    public func sinkInputs() async throws -> [[String]] {
        try await pactl("list", "short", "sink-inputs").split(separator: "\n")
            .map { $0.split(separator: "\t").map(String.init) }
    }

    /// The sink index of each sink name.
    public func sinks() async throws -> [String: String] {
        let rows = try await pactl("list", "short", "sinks").split(separator: "\n")
            .map { $0.split(separator: "\t").map(String.init) }
        return Dictionary(rows.filter { $0.count > 1 }.map { ($0[1], $0[0]) }, uniquingKeysWith: { first, _ in first })
    }

    /// The module that made sink `name`.
    public func module(ofSink name: String) async throws -> String {
        let rows = try await pactl("list", "short", "modules").split(separator: "\n")
            .map { $0.split(separator: "\t").map(String.init) }
        guard let row = rows.first(where: { $0.count > 2 && $0[1] == "module-null-sink" && $0[2].contains("sink_name=\(name)") })
        else { throw PulseAudioError("no module made sink \(name)") }
        return row[0]
    }

    /// A playback stream of silence with the role `role` (e.g. "phone", which
    /// module-role-cork corks other streams for) until the process is ended.
    public func startStream(role: String) throws -> ChildProcess {
        try ChildProcess(URL(fileURLWithPath: "/usr/bin/pacat"),
                         arguments: ["--server", address, "--playback", "--raw", "--property=media.role=\(role)",
                                     "/dev/zero"])
    }

    public func stop() {
        if daemon.isRunning {
            daemon.terminate()
            _ = daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtime)
    }
}

public struct PulseAudioError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
