import Foundation

/// Whether Trackcast runs inside a Flatpak sandbox, where what it may do
/// outside (run windowless, read files beside an opened one) goes through
/// the desktop's portals.
public enum Sandbox {
    /// The file Flatpak puts at the root of every sandbox.
    public static let flatpakMarker = URL(fileURLWithPath: "/.flatpak-info")

    /// - Parameter marker: another file only for tests, which run outside any sandbox.
    public static func isSandboxed(marker: URL = flatpakMarker) -> Bool {
        FileManager.default.fileExists(atPath: marker.path)
    }
}
