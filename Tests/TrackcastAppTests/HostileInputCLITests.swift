import Foundation
import TestSupport
import Testing

/// The real `trackcast` binary given what strangers write.
@Suite("trackcast given hostile input", .needs("sqlite3"))
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

    /// How a library file goes bad: a stranger's bytes, a cut-off copy, a newer Trackcast's.
    enum Damage: String, CaseIterable, Sendable {
        case randomBytes, truncated, overwrittenPages, newerSchema
        /// Overwritten pages in a file in rollback-journal mode (as the
        /// sqlite3 tool or a backup may leave it): switching it to WAL
        /// writes its header, and closing checkpoints that into the file.
        case overwrittenRollbackJournal
    }

    @Test("a damaged or foreign library file is set aside, never overwritten, and a fresh library started",
          arguments: Damage.allCases)
    func damagedLibrary(_ damage: Damage) async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-damaged-\(UUID())")
        defer { try? FileManager.default.removeItem(at: library) }
        let database = library.appendingPathComponent("library.sqlite3")
        let environment: [String: String?] = ["TRACKCAST_LIBRARY_DIR": library.path, "DISPLAY": nil]
        // A real library first: one show of 200 episodes, so truncation cuts through data.
        let feed = library.appendingPathComponent("feed.xml")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try PodcastFeedWriter(title: "Kept", episodes: 200).data().write(to: feed)
        let subscribed = try await ChildProcess.run(trackcast, arguments: ["subscribe", feed.path], environment: environment)
        try #require(subscribed.status == 0, "\(subscribed.standardError)")

        switch damage {
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: database)
        case .truncated:
            let whole = try Data(contentsOf: database)
            try whole.prefix(whole.count / 2).write(to: database)
        case .overwrittenPages, .overwrittenRollbackJournal:
            if damage == .overwrittenRollbackJournal {
                let rollback = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                                          arguments: [database.path, "PRAGMA journal_mode = DELETE"])
                try #require(rollback.status == 0 && rollback.standardOutput.contains("delete"), "\(rollback.standardError)")
            }
            // Zeros over pages deep inside: the header and schema still read, the episodes do not.
            var whole = try Data(contentsOf: database)
            let start = whole.count * 3 / 5
            whole.replaceSubrange(start..<(start + 16_384), with: Data(count: 16_384))
            try whole.write(to: database)
        case .newerSchema:
            let bumped = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                                    arguments: [database.path, "PRAGMA user_version = 999"])
            try #require(bumped.status == 0, "\(bumped.standardError)")
        }
        let damaged = try Data(contentsOf: database)

        let result = try await ChildProcess.run(trackcast, arguments: ["shows"], environment: environment)

        #expect(result.status == 0, "\(result.standardError)")
        let expected = damage == .newerSchema ? "the library is from a newer Trackcast; it was kept as "
                                              : "the library was damaged; it was kept as "
        #expect(result.standardError.contains("trackcast: " + expected), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "a fresh library has no shows")
        let aside = try FileManager.default.contentsOfDirectory(atPath: library.path)
            .filter { $0.hasPrefix("library.sqlite3.set-aside-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(aside.count == 1)
        if let name = aside.first {
            #expect(try Data(contentsOf: library.appendingPathComponent(name)) == damaged, "set aside byte for byte")
            #expect(result.standardError.contains(name))
        }
        // The fresh library works, and a second start leaves everything where it is.
        let again = try await ChildProcess.run(trackcast, arguments: ["subscribe", feed.path], environment: environment)
        #expect(again.status == 0 && !again.standardError.contains("kept as"), "\(again.standardError)")
    }

    @Test("play --start 1e300 starts at the longest time there is and ends, instead of trapping")
    func hugeStart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-far-\(UUID()).opus")
        defer { try? FileManager.default.removeItem(at: file) }
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=50", "samplesperbuffer=960", "!", "audio/x-raw,rate=48000",
            "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!", "filesink", "location=\(file.path)",
        ])
        try #require(made.status == 0, "\(made.standardError)")
        let result = try await ChildProcess.run(trackcast, arguments: ["play", file.path, "--start", "1e300"],
                                                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil,
                                                              "TRACKCAST_AUDIO_SINK": "fakesink sync=true"],
                                                timeout: .seconds(30))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("state ended\n"), "\(result.standardOutput)")
    }

    @Test("control characters already in a library are escaped in what shows and episodes print")
    func controlsEscaped() async throws {
        let cli = try LibraryCLI()
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-controls-\(UUID()).xml")
        defer { try? FileManager.default.removeItem(at: feed) }
        try PodcastFeedWriter(title: "Plain", episodes: 1).data().write(to: feed)
        let subscribed = try await cli.run(["subscribe", feed.path])
        try #require(subscribed.status == 0, "\(subscribed.standardError)")
        // As a Trackcast that kept controls would have stored them.
        let poisoned = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [
            cli.database.path,
            "UPDATE shows SET title = 'A' || char(27) || ']0;x' || char(7) || char(155) || 'B';"
                + "UPDATE episodes SET title = 'E' || char(27) || '[2J' || char(8);",
        ])
        try #require(poisoned.status == 0, "\(poisoned.standardError)")

        for command in ["shows", "episodes"] {
            let result = try await cli.run(command == "shows" ? ["shows"] : ["episodes", "1"])
            #expect(result.status == 0, "\(result.standardError)")
            let controls = result.standardOutput.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            }
            #expect(controls.isEmpty, "\(command) printed \(controls.map { String($0.value, radix: 16) })")
            // Written as JSON writes them, so that --json output stays JSON.
            let expected = command == "shows" ? "A\\u001B]0;x\\u0007\\u009BB" : "E\\u001B[2J\\u0008"
            #expect(result.standardOutput.contains(expected), "\(result.standardOutput)")
        }
        let json = try await cli.run(["episodes", "1", "--json"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))) != nil, "\(json.standardOutput)")
    }
}
