import Foundation

extension LibraryStore {
    /// Saves a batch of positions in one transaction (the player flushes every
    /// few seconds, not per tick).
    ///
    /// A position older than the one stored for the same key is ignored, so a
    /// late flush of a stale batch cannot move playback back. Positions for
    /// episodes no longer in the library (unsubscribed mid-play) are dropped.
    public func savePositions(_ updates: [ResumePositionUpdate]) throws {
        try connection.transaction {
            for update in updates {
                let position = update.position
                switch update.key {
                case .episode(let id):
                    try connection.execute("""
                        INSERT INTO resume_positions (episode_id, position, duration, updated)
                        SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM episodes WHERE id = ?1)
                        ON CONFLICT (episode_id) DO UPDATE SET position = excluded.position,
                            duration = excluded.duration, updated = excluded.updated
                        WHERE excluded.updated >= resume_positions.updated
                        """, [id, position.position, position.duration, position.updated.timeIntervalSince1970])
                case .uri(let uri):
                    try connection.execute("""
                        INSERT INTO resume_positions (uri, position, duration, updated) VALUES (?, ?, ?, ?)
                        ON CONFLICT (uri) DO UPDATE SET position = excluded.position,
                            duration = excluded.duration, updated = excluded.updated
                        WHERE excluded.updated >= resume_positions.updated
                        """, [uri, position.position, position.duration, position.updated.timeIntervalSince1970])
                }
            }
        }
    }

    public func position(for key: ResumeKey) throws -> ResumePosition? {
        let (condition, value): (String, any SQLiteBindable) = switch key {
        case .episode(let id): ("episode_id = ?", id)
        case .uri(let uri): ("uri = ?", uri)
        }
        return try connection.queryFirst("SELECT position, duration, updated FROM resume_positions WHERE \(condition)",
                                         [value]) {
            ResumePosition(position: $0.double(0), duration: $0.optionalDouble(1),
                           updated: Date(timeIntervalSince1970: $0.double(2)))
        }
    }

    /// Forgets where a file or episode stopped, e.g. when it played to the end.
    public func removePosition(for key: ResumeKey) throws {
        switch key {
        case .episode(let id):
            try connection.execute("DELETE FROM resume_positions WHERE episode_id = ?", [id])
        case .uri(let uri):
            try connection.execute("DELETE FROM resume_positions WHERE uri = ?", [uri])
        }
    }
}
