import Foundation

/// A library file that could not be used, and where it was moved.
public struct SetAsideLibrary: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// Not a database, truncated, overwritten: SQLite's words for what it found.
        case damaged(String)
        /// Written by a newer Trackcast (schema `found`, this one knows up to `supported`).
        case newerVersion(found: Int, supported: Int)
    }

    public let reason: Reason
    /// The library file's new name; its `-wal` and `-shm` files, if any, sit beside it with the same suffix.
    public let movedTo: URL
}

extension LibraryStore {
    /// Opens the library in `directory` like `init(directory:)`, but a file
    /// that cannot be used as this Trackcast's library (not a database,
    /// damaged so that `PRAGMA quick_check` fails, or from a newer Trackcast)
    /// is renamed aside, never deleted or written to, and a fresh library is
    /// started in its place. The file is checked through a read-only
    /// connection before the library's own opens it: that one switches it to
    /// WAL and migrates it, which writes, and checkpoints into it on closing. Other failures (permissions, a full disk, a
    /// library locked by another process) are thrown as they are: the file
    /// may be fine, so it stays where it is.
    public static func openRecovering(directory: URL, now: Date = Date()) async throws -> (LibraryStore, SetAsideLibrary?) {
        let reason: SetAsideLibrary.Reason
        do {
            let file = directory.appendingPathComponent(databaseFileName)
            guard let found = try unusableReason(file) else { return (try await LibraryStore(directory: directory), nil) }
            reason = found
        } catch let error as SQLiteError where error.isCorruption {
            reason = .damaged(error.message)
        } catch LibraryStoreError.schemaTooNew(let found, let supported) {
            reason = .newerVersion(found: found, supported: supported)
        }
        // The store above is gone, its connection closed: the files can move.
        let movedTo = try setAside(directory.appendingPathComponent(databaseFileName), now: now)
        return (try await LibraryStore(directory: directory), SetAsideLibrary(reason: reason, movedTo: movedTo))
    }

    /// Why `file` cannot be this Trackcast's library, found without writing
    /// to it; nil if it can be (or does not exist yet). Throws what SQLite
    /// throws, corruption (a file that is no database) among it.
    private static func unusableReason(_ file: URL) throws -> SetAsideLibrary.Reason? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let connection = try SQLiteConnection(path: file.path, access: .readOnly)
        let problems = try quickCheck(connection)
        if !problems.isEmpty { return .damaged(problems.prefix(3).joined(separator: "; ")) }
        let found = try SchemaMigrator.version(of: connection)
        let supported = SchemaMigrator().latestVersion
        return found > supported ? .newerVersion(found: found, supported: supported) : nil
    }

    /// `PRAGMA quick_check`'s findings; empty when the database is sound.
    /// (It reads every page, so a truncated or partly overwritten file shows.)
    private static func quickCheck(_ connection: SQLiteConnection) throws -> [String] {
        let rows = try connection.query("PRAGMA quick_check") { $0.string(0) }
        return rows == ["ok"] ? [] : rows
    }

    /// Renames `file` (and its -wal and -shm) to `file.set-aside-DATE[-N]`, never over an existing file.
    private static func setAside(_ file: URL, now: Date) throws -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        var attempt = 1
        while true {
            let target = URL(fileURLWithPath: file.path + ".set-aside-\(stamp)" + (attempt == 1 ? "" : "-\(attempt)"))
            attempt += 1
            // link(2) fails on an existing name where rename(2) would replace it.
            guard link(file.path, target.path) == 0 else {
                if errno == EEXIST { continue }
                throw SQLiteError(extendedCode: 14, message: "cannot set the library aside: \(String(cString: strerror(errno)))")
            }
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: file.path + suffix) {
                _ = rename(file.path + suffix, target.path + suffix)
            }
            unlink(file.path)
            return target
        }
    }
}
