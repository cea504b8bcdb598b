extension LibraryStore {
    /// The episodes waiting for their automatic download, newest first: what
    /// refreshes brought to shows set to download new episodes
    /// (`ShowSettings.autoDownload`) since the show was refreshed before,
    /// with no download record yet (`LibrarySchema.version9`).
    public func waitingAutoDownloads() throws -> [EpisodeID] {
        try connection.query("SELECT episode_id FROM auto_downloads_waiting ORDER BY episode_id DESC") {
            EpisodeID(rawValue: $0.int64(0))
        }
    }

    /// Takes `episode` off the waiting list, its automatic download tried:
    /// a download that failed before it made a record is not tried again.
    public func endAutoDownloadWait(_ episode: EpisodeID) throws {
        try connection.execute("DELETE FROM auto_downloads_waiting WHERE episode_id = ?", [episode])
    }
}
