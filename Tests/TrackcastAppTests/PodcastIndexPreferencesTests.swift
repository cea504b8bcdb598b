import Foundation
import TestSupport
import Testing

/// The Podcast Index key and secret, typed into Preferences as a person
/// would (xdotool, no window manager: the preferences window opens at the
/// screen's corner, 640×576, its "API Key" row at about (140, 516)), and
/// Discover offering Podcast Index once both are set, without a restart;
/// both stored in a real keyring (`PrivateKeyring`), none in GSettings, and
/// without a keyring used all the same, with one message.
extension RunningAppTests {
    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")

    /// Opens Preferences and types TESTKEY and testsecret into its rows;
    /// returns where the app's output stood before the typing.
    private static func typeCredentials(into app: RunningApp) async throws -> String.Index {
        try await app.openPreferences()
        let before = app.standardOutput.endIndex
        _ = try await ChildProcess.run(xdotool, arguments: ["mousemove", "140", "516", "click", "1"])
        _ = try await ChildProcess.run(xdotool, arguments: ["type", "--delay", "20", "TESTKEY"])
        #expect(!app.standardOutput[before...].contains("discover: directories Apple Podcasts, Podcast Index"),
                "a key alone must not add the directory: \(app.standardOutput[before...])")
        // Tab goes on to the secret's row.
        _ = try await ChildProcess.run(xdotool, arguments: ["key", "Tab"])
        _ = try await ChildProcess.run(xdotool, arguments: ["type", "--delay", "20", "testsecret"])
        let offered = await app.waitForLine("discover: directories Apple Podcasts, Podcast Index", after: before)
        #expect(offered, "Discover did not offer Podcast Index: \(app.standardOutput[before...])")
        return before
    }

    private static func launch(on bus: PrivateKeyring, library: URL) async throws -> RunningApp {
        try await RunningApp.launch(library: library, environment: bus.environment.merging(
            ["GSETTINGS_BACKEND": "keyfile", "LANGUAGE": "en"]) { $1 })
    }

    @Test("a Podcast Index key and secret typed into Preferences add the directory to Discover")
    func podcastIndexKeyFromPreferences() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let keyring = try await PrivateKeyring(.unlocked)
        defer { keyring.stop() }
        let app = try await Self.launch(on: keyring, library: library)
        let result = try await app.quitting { app in
            _ = try await Self.typeCredentials(into: app)
            // The keyring is written in the background: wait for the last value.
            var stored = false
            for _ in 0..<50 where !stored {
                let key = try await keyring.lookup("podcast-index-api-key")
                let secret = try await keyring.lookup("podcast-index-api-secret")
                stored = key == "TESTKEY" && secret == "testsecret"
                if !stored { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(stored, "the keyring does not hold the typed key and secret")
        }
        #expect(result.status == 0 && !result.timedOut)
        let settings = (try? String(contentsOf: keyring.settingsFile, encoding: .utf8)) ?? ""
        #expect(!settings.contains("TESTKEY") && !settings.contains("testsecret"), "in GSettings: \(settings)")
    }

    @Test("without a keyring a typed key is used until quit, said once in Preferences, and kept nowhere")
    func podcastIndexKeyFromPreferencesWithoutKeyring() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let bus = try await PrivateKeyring(.absent)
        defer { bus.stop() }
        let app = try await Self.launch(on: bus, library: library)
        let message = "preferences toast: Keyring unavailable: the key is kept until you quit"
        let result = try await app.quitting { app in
            let before = try await Self.typeCredentials(into: app)
            #expect(await app.waitForLine(message, after: before), "\(app.standardOutput[before...])")
        }
        #expect(result.status == 0 && !result.timedOut)
        // Every key typed failed to be written; all of it, to the end, said it once.
        #expect(app.standardOutput.components(separatedBy: message).count == 2, "told more than once: \(app.standardOutput)")
        #expect(app.standardError.components(separatedBy: "cannot write the keyring").count > 2, "\(app.standardError)")
        let settings = (try? String(contentsOf: bus.settingsFile, encoding: .utf8)) ?? ""
        #expect(!settings.contains("TESTKEY") && !settings.contains("testsecret"), "in GSettings: \(settings)")
    }
}
