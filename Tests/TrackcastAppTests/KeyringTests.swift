import Foundation
import TestSupport
import Testing

/// The Podcast Index key and secret in a real GNOME Keyring, each app on a
/// session bus of its test's own (`PrivateKeyring`), its GSettings in a
/// keyfile there, read from outside: moved once out of GSettings, read back
/// from the keyring at the next start, and kept in GSettings with a message
/// when there is no keyring or it is locked.
extension RunningAppTests {
    private static let legacySettings = """
        [org/trackcast/Trackcast]
        podcast-index-api-key='OLDKEY'
        podcast-index-api-secret='oldsecret'

        """

    private static func settings(in keyring: PrivateKeyring, _ text: String) throws {
        try FileManager.default.createDirectory(at: keyring.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: keyring.settingsFile)
    }

    private static func environment(_ keyring: PrivateKeyring) -> [String: String?] {
        keyring.environment.merging(["GSETTINGS_BACKEND": "keyfile", "LANGUAGE": "en"]) { $1 }
    }

    @Test("a Podcast Index key left in GSettings moves into the keyring once and is read from there after")
    func podcastIndexKeyMovesToKeyring() async throws {
        let keyring = try await PrivateKeyring(.unlocked)
        defer { keyring.stop() }
        try Self.settings(in: keyring, Self.legacySettings)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }

        let first = try await RunningApp.launch(library: library, environment: Self.environment(keyring))
        let moved = try await first.quitting { app in
            #expect(await app.waitForLine("podcast index: key and secret moved from the settings to the keyring"),
                    "\(app.standardOutput)\(app.standardError)")
            #expect(await app.waitForLine("discover: directories Apple Podcasts, Podcast Index"))
        }
        #expect(moved.status == 0 && !moved.timedOut)
        #expect(try await keyring.lookup("podcast-index-api-key") == "OLDKEY")
        #expect(try await keyring.lookup("podcast-index-api-secret") == "oldsecret")
        let settings = try String(contentsOf: keyring.settingsFile, encoding: .utf8)
        #expect(!settings.contains("OLDKEY") && !settings.contains("oldsecret"), "still in GSettings: \(settings)")
        #expect(settings.contains("podcast-index-in-keyring=true"), "\(settings)")

        let second = try await RunningApp.launch(library: library, environment: Self.environment(keyring))
        let read = try await second.quitting { app in
            #expect(await app.waitForLine("podcast index: key and secret read from the keyring"),
                    "\(app.standardOutput)\(app.standardError)")
            #expect(await app.waitForLine("discover: directories Apple Podcasts, Podcast Index"))
            #expect(!app.standardOutput.contains("moved from the settings"))
        }
        #expect(read.status == 0 && !read.timedOut)
    }

    @Test("without a keyring the key stays in GSettings, the user is told, and Discover still uses it")
    func podcastIndexKeyWithoutKeyring() async throws {
        let bus = try await PrivateKeyring(.absent)
        defer { bus.stop() }
        try Self.settings(in: bus, Self.legacySettings)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }

        let app = try await RunningApp.launch(library: library, environment: Self.environment(bus))
        let result = try await app.quitting { app in
            #expect(await app.waitForLine("toast: Keyring unavailable: the Podcast Index key stays in the settings"),
                    "\(app.standardOutput)\(app.standardError)")
            #expect(app.standardError.contains("org.freedesktop.secrets"), "the log names what is missing: \(app.standardError)")
            #expect(await app.waitForLine("discover: directories Apple Podcasts, Podcast Index"))
        }
        #expect(result.status == 0 && !result.timedOut)
        let settings = try String(contentsOf: bus.settingsFile, encoding: .utf8)
        #expect(settings.contains("OLDKEY") && settings.contains("oldsecret"), "lost from GSettings: \(settings)")
        #expect(!settings.contains("podcast-index-in-keyring=true"), "\(settings)")
    }

    @Test("a locked keyring keeps the key in GSettings, and one that holds it but stays locked is said so")
    func podcastIndexKeyWithLockedKeyring() async throws {
        let keyring = try await PrivateKeyring(.locked)
        defer { keyring.stop() }
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }

        try Self.settings(in: keyring, Self.legacySettings)
        let moving = try await RunningApp.launch(library: library, environment: Self.environment(keyring))
        let kept = try await moving.quitting { app in
            #expect(await app.waitForLine("toast: Keyring unavailable: the Podcast Index key stays in the settings"),
                    "\(app.standardOutput)\(app.standardError)")
            #expect(app.standardError.contains("locked"), "the log says why: \(app.standardError)")
        }
        #expect(kept.status == 0 && !kept.timedOut)
        let settings = try String(contentsOf: keyring.settingsFile, encoding: .utf8)
        #expect(settings.contains("OLDKEY") && settings.contains("oldsecret"), "lost from GSettings: \(settings)")

        try Self.settings(in: keyring, "[org/trackcast/Trackcast]\npodcast-index-in-keyring=true\n")
        let reading = try await RunningApp.launch(library: library, environment: Self.environment(keyring))
        let told = try await reading.quitting { app in
            #expect(await app.waitForLine("toast: Keyring locked or empty: Discover searches without Podcast Index"),
                    "\(app.standardOutput)\(app.standardError)")
            #expect(!app.standardOutput.contains("discover: directories Apple Podcasts, Podcast Index"))
        }
        #expect(told.status == 0 && !told.timedOut)
    }
}
