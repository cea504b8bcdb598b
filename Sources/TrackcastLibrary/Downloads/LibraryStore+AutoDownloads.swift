extension LibraryStore {
    /// Which of `episodes` (a refresh's `arrivals`) to download without being
    /// asked: those of shows set to download new episodes
    /// (`ShowSettings.autoDownload`) that have no download record, running,
    /// finished or failed. Arrivals come once per episode, so an episode
    /// whose download the user deleted is never brought back either.
    /// Keeps the order given.
    public func dueForAutoDownload(_ episodes: [EpisodeID]) throws -> [EpisodeID] {
        try episodes.filter { episode in
            try connection.queryFirst("""
                SELECT 1 FROM episodes JOIN shows ON shows.id = episodes.show_id
                WHERE episodes.id = ? AND shows.auto_download = 1
                    AND NOT EXISTS (SELECT 1 FROM downloads WHERE downloads.episode_id = episodes.id)
                """, [episode]) { _ in true } ?? false
        }
    }
}
