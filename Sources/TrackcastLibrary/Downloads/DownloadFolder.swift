import Foundation

/// The downloads folder as the one place whose files Trackcast deletes.
///
/// A download's path is read back from the library file, which can be
/// damaged, edited by hand or copied from another machine: a row naming
/// `/home/me/thesis.odt`, `downloads/../../thesis.odt` or a file under a
/// folder linked to elsewhere must not make unsubscribing or deleting a
/// download delete it. Such files are left where they are.
public struct DownloadFolder: Sendable {
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// Whether `file` lies inside the folder once every symbolic link and
    /// `..` on the way to it is resolved. The file itself may be a link:
    /// `unlink` removes the link, not what it points to.
    public func contains(_ file: URL) -> Bool {
        let name = file.lastPathComponent
        guard !name.isEmpty, name != ".", name != "..", name != "/",
              let folder = Self.resolved(url.path),
              let parent = Self.resolved(file.deletingLastPathComponent().path)
        else { return false }
        return parent == folder || parent.hasPrefix(folder == "/" ? folder : folder + "/")
    }

    /// Deletes those of `files` that lie inside the folder and returns how
    /// many were deleted; the others are not touched. Blocking file work.
    public func removeFiles(_ files: [URL]) -> Int {
        files.filter { contains($0) && unlink($0.path) == 0 }.count
    }

    /// `path` with links, `.` and `..` resolved, or nil if it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
