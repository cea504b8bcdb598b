import Foundation
import TestSupport
import TrackcastLibrary

/// GNOME Shell's first question to a Trackcast that is not running:
/// `GetInitialResultSet`, sent by gdbus to a bus of the bench's own that
/// D-Bus-activates `trackcast --gapplication-service` (as the installed
/// service file does), from the call to its reply; against the app's own
/// start to its first window frame (`StartupBenchmark`), interleaved,
/// medians of 9. The library: 10 shows of 100 episodes, indexed.
struct SearchProviderBenchmark {
    let startup: StartupBenchmark
    var runs = 9

    func run() async throws -> BenchRow {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-provider-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library")
        do {
            let store = try await LibraryStore(directory: library)
            _ = try await SearchIndexBenchmark.fill(store, shows: 10, episodesPerShow: 100, transcribed: 0)
            try await SearchIndexBuilder(store: store) { _, _ in nil }.run()
        }
        let word = SearchIndexBenchmark.vocabulary[2_000]
        let windowEnvironment = ["TRACKCAST_QUIT_AFTER_FIRST_FRAME": "1", "TRACKCAST_LIBRARY_DIR": library.path]
        _ = try await answer(folder: folder, library: library, word: word)
        _ = try startup.timeToFirstFrame(startup.trackcast, environment: windowEnvironment)
        var ours: [Double] = [], window: [Double] = []
        for _ in 0..<runs {
            ours.append(try await answer(folder: folder, library: library, word: word))
            window.append(try startup.timeToFirstFrame(startup.trackcast, environment: windowEnvironment))
        }
        return BenchRow(measured: "GNOME Shell search from a cold D-Bus activation, call to results (median of \(runs))",
                        unit: "ms", trackcast: startup.median(ours), peerName: "the app's start to its first window frame",
                        peer: startup.median(window))
    }

    /// One cold activation: a fresh bus (the app of the run before left with its bus), one call, timed.
    private func answer(folder: URL, library: URL, word: String) async throws -> Double {
        let services = folder.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try Data("""
            [D-BUS Service]
            Name=org.trackcast.Trackcast
            Exec=\(startup.trackcast.path) --library \(library.path) --gapplication-service
            """.utf8).write(to: services.appendingPathComponent("org.trackcast.Trackcast.service"))
        let socket = folder.appendingPathComponent("bus").path
        try? FileManager.default.removeItem(atPath: socket)
        let configuration = folder.appendingPathComponent("bus.conf")
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(services.path)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8).write(to: configuration)
        let daemon = try ChildProcess(URL(fileURLWithPath: "/usr/bin/dbus-daemon"),
                                      arguments: ["--config-file=\(configuration.path)", "--nofork"])
        defer {
            daemon.terminate()
            _ = daemon.waitUntilExit()
        }
        guard await daemon.waitFor(timeout: .seconds(10), { _ in FileManager.default.fileExists(atPath: socket) }) else {
            throw BenchError.noFrame("dbus-daemon")
        }
        let clock = ContinuousClock()
        var reply: ChildProcess.Result?
        let elapsed = try await clock.measure {
            reply = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
                "call", "--session", "--dest", "org.trackcast.Trackcast",
                "--object-path", "/org/trackcast/Trackcast/SearchProvider",
                "--method", "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['\(word)']",
            ], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"])
        }
        guard let reply, reply.status == 0, reply.standardOutput.hasPrefix("(['") else {
            throw BenchError.noFrame("the search provider (\(reply?.standardError ?? ""))")
        }
        return elapsed / .milliseconds(1)
    }
}
