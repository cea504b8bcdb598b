/// Library errors that are not SQLite's own (those arrive as `SQLiteError`).
public enum LibraryStoreError: Error, Sendable, Equatable {
    /// The database was written by a newer Trackcast; it is left untouched.
    case schemaTooNew(found: Int, supported: Int)
    case unknownShow(ShowID)
    case unknownEpisode(EpisodeID)
}
