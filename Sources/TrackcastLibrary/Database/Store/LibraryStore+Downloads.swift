import Foundation

extension LibraryStore {
    /// Records where an episode's download stands (one record per episode).
    public func setDownload(_ record: DownloadRecord, for episode: EpisodeID) throws {
        try connection.transaction {
            let exists = try connection.queryFirst("SELECT 1 FROM episodes WHERE id = ?", [episode]) { _ in true } ?? false
            guard exists else { throw LibraryStoreError.unknownEpisode(episode) }
            try connection.execute("""
                INSERT INTO downloads (episode_id, state, path, bytes, total, error, updated)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (episode_id) DO UPDATE SET state = excluded.state, path = excluded.path,
                    bytes = excluded.bytes, total = excluded.total, error = excluded.error, updated = excluded.updated
                """, [episode, record.state.rawValue, record.file?.path, record.bytes, record.total, record.error,
                      record.updated.databaseSeconds])
        }
    }

    public func download(for episode: EpisodeID) throws -> DownloadRecord? {
        try connection.queryFirst("""
            SELECT state, path, bytes, total, error, updated FROM downloads WHERE episode_id = ?
            """, [episode]) { row in
            row.enumeration(0, as: DownloadState.self).map {
                DownloadRecord(state: $0, file: row.optionalString(1).map { URL(fileURLWithPath: $0) },
                               bytes: row.int64(2), total: row.optionalInt64(3), error: row.optionalString(4),
                               updated: row.date(5))
            }
        } ?? nil
    }

    public func removeDownload(for episode: EpisodeID) throws {
        try connection.execute("DELETE FROM downloads WHERE episode_id = ?", [episode])
    }
}
