import Foundation
import TestSupport

/// The real `trackcast` binary run headless against a library of its own in
/// a temporary directory (removed when the value goes away).
final class LibraryCLI {
    let library: URL
    private let trackcast = BuiltProducts.executable("trackcast")
    private let environment: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "LANGUAGE": "C", "LC_ALL": "C.UTF-8"]

    init() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-cli-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: library)
    }

    var database: URL { library.appendingPathComponent("library.sqlite3") }
    var downloads: URL { library.appendingPathComponent("downloads") }

    func run(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> ChildProcess.Result {
        try await start(arguments).finish(timeout: timeout)
    }

    func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(trackcast, arguments: ["--library", library.path] + arguments, environment: environment)
    }

    /// Runs `arguments` in a user and mount namespace of its own
    /// (`unshare -rm`, no root needed) after `mounts`, shell commands that
    /// mount over the library's folders ($LIBRARY, $DOWNLOADS) for this one
    /// process: a full disk, a read-only folder. Standard output ends with a
    /// line "::files::" and the files under $DOWNLOADS as the process left
    /// them, relative paths one a line (a tmpfs is gone once it ends).
    func run(_ arguments: [String], withMounts mounts: String) async throws -> ChildProcess.Result {
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let script = """
            set -e
            \(mounts)
            set +e
            "$TRACKCAST" --library "$LIBRARY" "$@"
            status=$?
            echo ::files::
            find "$DOWNLOADS" -type f -printf '%P\\n'
            exit $status
            """
        var environment = self.environment
        environment["TRACKCAST"] = trackcast.path
        environment["LIBRARY"] = library.path
        environment["DOWNLOADS"] = downloads.path
        return try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                          arguments: ["-rm", "/bin/sh", "-c", script, "sh"] + arguments,
                                          environment: environment, timeout: .seconds(60))
    }

    /// `episodes [SHOW] --json`, decoded.
    func episodes(_ show: String? = nil) async throws -> [[String: Any]] {
        let result = try await run(["episodes"] + (show.map { [$0] } ?? []) + ["--json"])
        guard result.status == 0,
              let list = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        else { throw CLIError("episodes --json failed: \(result.standardError)") }
        return list
    }

    /// `shows`, split into columns.
    func shows() async throws -> [[String]] {
        let result = try await run(["shows"])
        guard result.status == 0 else { throw CLIError("shows failed: \(result.standardError)") }
        return result.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// SQLite's own verdict on the library file, asked by the sqlite3 tool as another process would.
    func integrityCheck() async throws -> String {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                                arguments: [database.path, "PRAGMA integrity_check; PRAGMA foreign_key_check;"])
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
