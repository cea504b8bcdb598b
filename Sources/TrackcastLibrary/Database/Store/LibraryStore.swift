import Foundation

/// The podcast library: shows, episodes and their media, the queue, resume
/// positions, downloads and settings, kept in `library.sqlite3` inside the
/// library directory.
///
/// An actor: every database call runs off the main thread, one at a time, on
/// the store's one connection. Writes that belong together (a whole feed, a
/// batch of positions, a queue edit) commit in one transaction or not at all.
public actor LibraryStore {
    public static let databaseFileName = "library.sqlite3"

    public nonisolated let databaseURL: URL
    let connection: SQLiteConnection

    /// Opens the library in `directory`, creating the directory and database
    /// if needed and migrating an older database to the current schema.
    ///
    /// `async` so that the file work runs on the global executor, not on the
    /// caller's thread (which may be the main one). Throws `SQLiteError` for a
    /// file that is not a database or is damaged, and
    /// `LibraryStoreError.schemaTooNew` for one from a newer Trackcast; in both
    /// cases the file is left as it was.
    public init(directory: URL) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databaseURL = directory.appendingPathComponent(Self.databaseFileName)
        connection = try SQLiteConnection(path: databaseURL.path)
        try SchemaMigrator().migrate(connection)
    }
}
