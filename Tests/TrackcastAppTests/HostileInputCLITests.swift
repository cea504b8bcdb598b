import Foundation
import TestSupport
import Testing

/// The real `trackcast` binary given what strangers write.
@Suite("trackcast given hostile input")
struct HostileInputCLITests {
    private let trackcast = BuiltProducts.executable("trackcast")

    /// A feed whose ten nested entities would expand to 10⁹ "lol"s (3 GB).
    private static func billionLaughsFeed() -> String {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\n  <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += "  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        return text + "]>\n<rss version=\"2.0\"><channel><title>Laughs&lol9;</title><item><title>&lol9;</title><guid>1</guid></item></channel></rss>\n"
    }

    @Test("a billion-laughs feed parses in 300 MB of address space")
    func billionLaughs() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-laughs-\(UUID()).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Self.billionLaughsFeed().utf8).write(to: file)
        // An address-space limit turns any expansion into a failed allocation and a crash.
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/prlimit"), arguments: [
            "--as=300000000", trackcast.path, "feed", "parse", file.path, "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"title\": \"Laughs\""))
    }
}
