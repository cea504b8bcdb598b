import Foundation
import TestSupport
import Testing

/// The real GUI under the test session's display and D-Bus session bus
/// (meson-helpers/test provides both with xvfb-run and dbus-run-session).
/// Serialized: the app is single-instance, so only one may run at a time.
@Suite("The running app", .needs("xdotool", "import", "xdpyinfo", "xwininfo", "xprop", "metacity", "sqlite3", "ffmpeg", "pulseaudio", "pactl", "pacat", "gdbus"), .serialized)
struct RunningAppTests {
    let trackcast = BuiltProducts.executable("trackcast")

    private func launchPrimary() async throws -> RunningApp {
        try await RunningApp.launch(library: RunningApp.temporaryLibrary(), until: .windowShown)
    }

    @Test("an idle window costs under 1% CPU and wakes only a few times a second")
    func idle() async throws {
        let app = try await launchPrimary()
        // Let start-up work (accessibility bus, fonts, first layout) settle.
        try await Task.sleep(for: .seconds(2))
        let (cpuShare, wakeupsPerSecond) = try await app.usageOverTenSeconds()
        print("idle app: \(cpuShare * 100)% CPU, \(wakeupsPerSecond) wake-ups/s")
        #expect(cpuShare < 0.01)
        #expect(wakeupsPerSecond < 5)
        let result = try await app.quit()
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
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }
}
