extension LibraryStore {
    /// Which of `episodes` (a refresh's `arrivals`) to download without being
    /// asked: those of shows set to download new episodes
    /// (`ShowSettings.autoDownload`) that have no download record, running,
    /// finished or failed. Arrivals come once per episode, so an episode
    /// whose download the user deleted is never brought back either.
    /// Keeps the order given.
    public func dueForAutoDownload(_ episodes: [EpisodeID]) throws -> [EpisodeID] {
        guard !episodes.isEmpty else { return [] }
        // One statement for the lot (their ids as a JSON array), as a
        // refresh of many shows brings many arrivals at once.
        let due = Set(try connection.query("""
            SELECT episodes.id FROM episodes JOIN shows ON shows.id = episodes.show_id
            WHERE episodes.id IN (SELECT value FROM json_each(?)) AND shows.auto_download = 1
                AND NOT EXISTS (SELECT 1 FROM downloads WHERE downloads.episode_id = episodes.id)
            """, ["[" + episodes.map { String($0.rawValue) }.joined(separator: ",") + "]"]) { EpisodeID(rawValue: $0.int64(0)) })
        return episodes.filter(due.contains)
    }
}
