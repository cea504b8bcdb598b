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
