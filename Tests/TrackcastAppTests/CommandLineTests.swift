import Foundation
import TestSupport
import Testing

/// The real `trackcast` binary, headless: no display may be needed.
@Suite("trackcast on the command line")
struct CommandLineTests {
    private let trackcast = BuiltProducts.executable("trackcast")
    private let noDisplay: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]

    @Test("--help works without a display")
    func help() async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["--help"], environment: noDisplay)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Usage: trackcast"))
        #expect(result.standardOutput.contains("--library DIR"))
        #expect(result.standardError.isEmpty)
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["--version"], environment: noDisplay)
        #expect(result.status == 0)
        #expect(result.standardOutput.range(of: #"^trackcast \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test("bad options and unknown commands exit 2 with a message and touch nothing", arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["--library"], "option --library needs a directory"),
    ])
    func usageError(arguments: [String], message: String) async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-untouched-\(UUID())")
        let result = try await ChildProcess.run(trackcast, arguments: arguments,
                                                environment: noDisplay.merging(["TRACKCAST_LIBRARY_DIR": library.path]) { $1 })
        #expect(result.status == 2)
        #expect(result.standardError.contains("trackcast: \(message)"))
        #expect(result.standardError.contains("trackcast --help"))
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: library.path))
    }
}

@Suite("trackcast in the user's language")
struct TranslatedCommandLineTests {
    /// Compiles the German catalog from the source tree, as meson would install it.
    private func germanCatalog() async throws -> URL {
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let localeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-locale-\(UUID())")
        let messages = localeDirectory.appendingPathComponent("de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let compiled = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/msgfmt"), arguments: [
            "--check", "--output-file=\(messages.appendingPathComponent("trackcast.mo").path)",
            sourceRoot.appendingPathComponent("po/de.po").path,
        ])
        try #require(compiled.status == 0, "msgfmt failed: \(compiled.standardError)")
        return localeDirectory
    }

    @Test("LANGUAGE=de gives German help and errors")
    func german() async throws {
        let environment: [String: String?] = ["LANG": "C.UTF-8", "LC_ALL": nil, "LANGUAGE": "de",
                                              "TRACKCAST_LOCALEDIR": try await germanCatalog().path,
                                              "DISPLAY": nil, "WAYLAND_DISPLAY": nil]
        let trackcast = BuiltProducts.executable("trackcast")
        let help = try await ChildProcess.run(trackcast, arguments: ["--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("Aufruf: trackcast"))
        #expect(help.standardOutput.contains("Diese Hilfe anzeigen"))
        let wrong = try await ChildProcess.run(trackcast, arguments: ["--frobnicate"], environment: environment)
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("Unbekannte Option »--frobnicate«"))
    }
}

@Suite("trackcast feed parse")
struct FeedParseCommandTests {
    private let trackcast = BuiltProducts.executable("trackcast")
    private let sampleShow = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sample/sample-show.xml")

    @Test("prints the feed as JSON without a display or a library")
    func parsesSampleShow() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-untouched-\(UUID())")
        let result = try await ChildProcess.run(trackcast, arguments: ["--library", library.path, "feed", "parse",
                                                                        sampleShow.path, "--json"],
                                                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(json["title"] as? String == "Trackcast Sample Show")
        let episodes = try #require(json["episodes"] as? [[String: Any]])
        #expect(episodes.count == 2)
        #expect(episodes.first?["duration"] as? Double == 13)
        #expect(!FileManager.default.fileExists(atPath: library.path), "parsing touches no library")
    }

    @Test("bad input gets one clear line and exit status 1", arguments: [
        ("/nonexistent/feed.xml", "/nonexistent/feed.xml:"),
        ("/etc/hostname", "/etc/hostname:"),
    ])
    func badInput(path: String, prefix: String) async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["feed", "parse", path, "--json"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("trackcast: \(prefix)"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardOutput.isEmpty)
    }
}
