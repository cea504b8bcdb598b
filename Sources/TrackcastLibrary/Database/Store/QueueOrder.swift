/// The play queue as an ordered list of episodes, written back with dense
/// 0-based positions. Callers run it inside a transaction.
///
/// Edits happen on the list in Swift and only rows whose position changed are
/// rewritten: simpler than shifting ranges in SQL, and a queue is short.
struct QueueOrder {
    let connection: SQLiteConnection

    func load() throws -> [EpisodeID] {
        try connection.query("SELECT episode_id FROM queue ORDER BY position", []) { EpisodeID(rawValue: $0.int64(0)) }
    }

    /// Makes the queue exactly `order`.
    func save(_ order: [EpisodeID]) throws {
        var stored: [EpisodeID: Int] = [:]
        for (id, position) in try connection.query("SELECT episode_id, position FROM queue", [], {
            (EpisodeID(rawValue: $0.int64(0)), $0.int(1))
        }) {
            stored[id] = position
        }
        let kept = Set(order)
        for id in stored.keys where !kept.contains(id) {
            try connection.execute("DELETE FROM queue WHERE episode_id = ?", [id])
        }
        for (position, id) in order.enumerated() {
            switch stored[id] {
            case position?:
                continue
            case .some:
                try connection.execute("UPDATE queue SET position = ? WHERE episode_id = ?", [position, id])
            case nil:
                try connection.execute("INSERT INTO queue (episode_id, position) VALUES (?, ?)", [id, position])
            }
        }
    }

    /// Closes the gaps that deleting episodes (through the cascade) leaves.
    func renumber() throws {
        try save(load())
    }
}
