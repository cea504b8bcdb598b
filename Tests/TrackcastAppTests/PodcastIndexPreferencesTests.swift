import Foundation
import TestSupport
import Testing

/// The Podcast Index key and secret, typed into Preferences as a person
/// would (xdotool, no window manager: the preferences window opens at the
/// screen's corner, 640×576, its "API Key" row at about (140, 516)), and
/// Discover offering Podcast Index once both are set, without a restart;
/// both stored in a real keyring (`PrivateKeyring`), none in GSettings.
extension RunningAppTests {
    @Test("a Podcast Index key and secret typed into Preferences add the directory to Discover")
    func podcastIndexKeyFromPreferences() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let keyring = try await PrivateKeyring(withKeyring: true)
        defer { keyring.stop() }
        let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
        let app = try await RunningApp.launch(library: library, environment: keyring.environment.merging(
            ["GSETTINGS_BACKEND": "keyfile", "LANGUAGE": "en"]) { $1 })
        let result = try await app.quitting { app in
            try await app.activate("preferences")
            var shown = false
            for _ in 0..<50 where !shown {
                let found = try await ChildProcess.run(xdotool, arguments: ["search", "--onlyvisible", "--name", "^Preferences$"])
                shown = !found.standardOutput.isEmpty
                if !shown { try await Task.sleep(for: .milliseconds(200)) }
            }
            try #require(shown, "the preferences window did not open")
            try await Task.sleep(for: .milliseconds(500))
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
}
