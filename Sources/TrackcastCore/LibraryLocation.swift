import Foundation

/// Where the user's library (database, downloads, artwork cache) lives.
public enum LibraryLocation {
    public static let environmentVariable = "TRACKCAST_LIBRARY_DIR"

    /// In order of precedence: the `--library` option, `TRACKCAST_LIBRARY_DIR`,
    /// `$XDG_DATA_HOME/trackcast`, `~/.local/share/trackcast`. Relative paths
    /// are resolved against `currentDirectory`. Nothing is created here.
    public static func resolve(option: String?, environment: [String: String],
                               currentDirectory: String = FileManager.default.currentDirectoryPath) -> URL {
        let base = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        if let option, !option.isEmpty {
            return URL(fileURLWithPath: option, isDirectory: true, relativeTo: base).standardizedFileURL
        }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            return URL(fileURLWithPath: fromEnvironment, isDirectory: true, relativeTo: base).standardizedFileURL
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent("trackcast", isDirectory: true)
    }
}

extension LibraryLocation {
    /// Creates the library directory if needed. Blocking file work: call it
    /// off the main thread.
    public static func prepare(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
}
