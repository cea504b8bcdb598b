import Foundation
import TestSupport
import Testing

/// Byte sizes through g_format_size (a no-break space before a unit), in the language the environment names,
/// with GLib's own words (Debian's libglib2.0-data ships them; its German
/// catalog says "Bytes" and "KB" where English says "bytes" and "kB").
@Suite("Byte sizes")
struct ByteSizeTests {
    private func formatted(_ bytes: [Int64], language: String) async throws -> [String] {
        let result = try await ChildProcess.run(BuiltProducts.executable("format-size-probe"),
                                                arguments: bytes.map(String.init),
                                                environment: ["LANG": "C.UTF-8", "LC_ALL": nil, "LANGUAGE": language])
        try #require(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test("English: decimal units, as GNOME writes them")
    func english() async throws {
        let english = try await formatted([0, 512, 1_500, 1_234_567, 5_000_000_000], language: "en")
        #expect(english == ["0 bytes", "512 bytes", "1.5\u{A0}kB", "1.2\u{A0}MB", "5.0\u{A0}GB"])
    }

    @Test("German: GLib's own translation")
    func german() async throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/locale/de/LC_MESSAGES/glib20.mo"),
                     "GLib's German catalog is missing: meson-helpers/deps installs it (libglib2.0-data)")
        let german = try await formatted([512, 1_500, 2_000_000], language: "de")
        #expect(german == ["512 Bytes", "1.5\u{A0}KB", "2.0\u{A0}MB"])
    }
}
