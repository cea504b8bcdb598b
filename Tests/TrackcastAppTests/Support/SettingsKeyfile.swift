import Foundation

/// Preferences set as the Preferences window sets them, in a GSettings
/// keyfile of one test's own (the keyfile backend, under a configuration
/// folder made for the test), so that tests running side by side do not see
/// each other's.
struct SettingsKeyfile {
    let configHome = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-config-\(UUID())")

    /// `lines`: `key=value` of the app's schema, as `gsettings` would store them.
    init(_ lines: [String]) throws {
        let keyfile = configHome.appendingPathComponent("glib-2.0/settings/keyfile")
        try FileManager.default.createDirectory(at: keyfile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (["[org/trackcast/Trackcast]"] + lines).map { $0 + "\n" }.joined()
            .write(to: keyfile, atomically: true, encoding: .utf8)
    }

    /// What the app is started with to read them.
    var environment: [String: String] {
        ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": configHome.path]
    }

    func remove() {
        try? FileManager.default.removeItem(at: configHome)
    }
}
