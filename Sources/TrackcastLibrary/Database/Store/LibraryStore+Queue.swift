extension LibraryStore {
    /// The play queue, in play order.
    public func queue() throws -> [EpisodeSummary] {
        var reader = EpisodeSummaryQuery.Reader()
        return try connection.query(EpisodeSummaryQuery.queue, []) { reader.read($0) }
    }

    /// "Play last": adds the episodes at the end, in the given order. One that
    /// is already queued moves to the end.
    public func enqueue(_ episodes: [EpisodeID]) throws {
        try editQueue(adding: episodes) { order in order + episodes }
    }

    /// "Play next": puts the episodes at the front, in the given order. One
    /// that is already queued moves to the front.
    public func enqueueFirst(_ episodes: [EpisodeID]) throws {
        try editQueue(adding: episodes) { order in episodes + order }
    }

    /// Moves a queued episode to `index` (clamped to the queue); the others keep their order.
    public func moveInQueue(_ episode: EpisodeID, to index: Int) throws {
        try editQueue { order in
            guard order.contains(episode) else { return order }
            var order = order.filter { $0 != episode }
            order.insert(episode, at: min(max(index, 0), order.count))
            return order
        }
    }

    public func removeFromQueue(_ episodes: [EpisodeID]) throws {
        let removed = Set(episodes)
        try editQueue { order in order.filter { !removed.contains($0) } }
    }

    public func clearQueue() throws {
        try connection.transaction {
            try connection.execute("DELETE FROM queue")
        }
    }

    /// Reads the queue, lets `edit` rearrange it, and writes it back in one
    /// transaction. `adding` episodes are checked to exist first and taken out
    /// of their old places, so `edit` only has to put them in their new ones.
    private func editQueue(adding: [EpisodeID] = [], _ edit: ([EpisodeID]) -> [EpisodeID]) throws {
        try connection.transaction {
            for id in adding {
                let exists = try connection.queryFirst("SELECT 1 FROM episodes WHERE id = ?", [id]) { _ in true } ?? false
                guard exists else { throw LibraryStoreError.unknownEpisode(id) }
            }
            let queue = QueueOrder(connection: connection)
            let added = Set(adding)
            var seen: Set<EpisodeID> = []
            // An episode listed twice in one call is queued once, at its first place.
            let order = edit(try queue.load().filter { !added.contains($0) }).filter { seen.insert($0).inserted }
            try queue.save(order)
        }
    }
}
