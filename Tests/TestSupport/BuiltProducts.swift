import Foundation

/// Executables SwiftPM built next to the test bundle.
public enum BuiltProducts {
    public static var directory: URL {
        // The test runner is itself a product in the build directory.
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    public static func executable(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }
}
