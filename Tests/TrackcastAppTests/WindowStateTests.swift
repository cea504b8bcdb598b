import Foundation
import TestSupport
import Testing

/// The window remembers its size across runs through GSettings. GSettings'
/// keyfile backend keeps the values in a file of this test's own, so two
/// processes can share them without touching the user's dconf database.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    private func runOnce(configHome: URL) async throws -> (width: Int, height: Int) {
        let app = try await RunningApp.launch(library: configHome.appendingPathComponent("library"),
                                              environment: ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": configHome.path],
                                              until: .windowShown)
        let info = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xwininfo"), arguments: ["-name", "Trackcast"])
        let size = try #require(Self.size(fromXwininfo: info.standardOutput), "xwininfo said: \(info.standardOutput)")
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
        return size
    }

    private static func size(fromXwininfo text: String) -> (width: Int, height: Int)? {
        func value(_ key: String) -> Int? {
            text.split(separator: "\n").first { $0.contains(key) }
                .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        guard let width = value("Width:"), let height = value("Height:") else { return nil }
        return (width, height)
    }

    @Test("the size is saved on quit and restored at the next start")
    func remembered() async throws {
        let configHome = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-config-\(UUID())")
        let keyfile = configHome.appendingPathComponent("glib-2.0/settings/keyfile")
        let first = try await runOnce(configHome: configHome)
        let saved = try String(contentsOf: keyfile, encoding: .utf8)
        #expect(saved.contains("window-width=960"), "the first run saves its size: \(saved)")

        try saved.replacingOccurrences(of: "window-width=960", with: "window-width=720")
            .replacingOccurrences(of: "window-height=680", with: "window-height=520")
            .write(to: keyfile, atomically: true, encoding: .utf8)
        let restored = try await runOnce(configHome: configHome)
        // Compared with the first run rather than absolutely: under a
        // compositing window manager GTK's X window includes its shadows.
        #expect(first.width - restored.width == 960 - 720 && first.height - restored.height == 680 - 520,
                "the first run opened at \(first), the second at \(restored)")
    }
}
