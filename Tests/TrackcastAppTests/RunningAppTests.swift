import Foundation
import TestSupport
import Testing

/// The real GUI under the test session's display and D-Bus session bus
/// (meson-helpers/test provides both with xvfb-run and dbus-run-session).
/// Serialized: the app is single-instance, so only one may run at a time.
@Suite("The running app", .serialized)
struct RunningAppTests {
    let trackcast = BuiltProducts.executable("trackcast")

    private func launchPrimary() async throws -> ChildProcess {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-app-\(UUID())")
        let app = try ChildProcess(trackcast, arguments: ["--library", library.path],
                                   environment: ["G_MESSAGES_DEBUG": "Trackcast"])
        let shown = await app.waitFor(timeout: .seconds(30)) { $0.standardOutput.contains("first frame painted") }
        try #require(shown, "no window frame within 30 s: \(app.standardOutput) \(app.standardError)")
        return app
    }

    func quit(_ app: ChildProcess) async throws -> ChildProcess.Result {
        // Through the app's own exported action, as a user's script could.
        _ = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gdbus"), arguments: [
            "call", "--session", "--dest", "org.trackcast.Trackcast", "--object-path", "/org/trackcast/Trackcast",
            "--method", "org.gtk.Actions.Activate", "quit", "[]", "{}",
        ])
        // Generous: quitting writes the position first, on a machine that may be busy.
        return await app.finish(timeout: .seconds(30))
    }

    @Test("an idle window costs under 1% CPU and wakes only a few times a second")
    func idle() async throws {
        let app = try await launchPrimary()
        // Let start-up work (accessibility bus, fonts, first layout) settle.
        try await Task.sleep(for: .seconds(2))
        let before = try #require(ProcessUsage(pid: app.pid))
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(10))
        let after = try #require(ProcessUsage(pid: app.pid))
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let cpuShare = (after.cpuSeconds - before.cpuSeconds) / elapsed
        let wakeupsPerSecond = Double(after.contextSwitches(since: before)) / elapsed
        print("idle app: \(cpuShare * 100)% CPU, \(wakeupsPerSecond) wake-ups/s")
        #expect(cpuShare < 0.01)
        #expect(wakeupsPerSecond < 5)
        let result = try await quit(app)
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a second launch hands its files to the first and exits")
    func singleInstance() async throws {
        let app = try await launchPrimary()
        let second = try await ChildProcess.run(trackcast, arguments: ["/tmp/episode.mp3"], timeout: .seconds(15))
        #expect(second.status == 0 && !second.timedOut)
        let received = await app.waitFor(timeout: .seconds(10)) {
            $0.standardOutput.contains("open: file:///tmp/episode.mp3")
        }
        #expect(received, "the first instance never got the file: \(app.standardOutput)")
        #expect(app.isRunning)
        let result = try await quit(app)
        #expect(result.status == 0 && !result.timedOut)
    }
}
