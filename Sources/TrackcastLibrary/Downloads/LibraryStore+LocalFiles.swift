import Foundation

extension LibraryStore {
    /// The downloaded file of an episode, when its download is complete and
    /// the file is still on disk: what the player opens instead of streaming.
    public func localFile(for episode: EpisodeID) -> URL? {
        guard let record = try? download(for: episode), record.state == .complete, let file = record.file,
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        return file
    }

    /// The files (complete or partial) of a show's downloads, for deleting
    /// before the show is unsubscribed.
    public func downloadFiles(ofShow show: ShowID) throws -> [URL] {
        try connection.query("""
            SELECT d.path FROM downloads d JOIN episodes e ON e.id = d.episode_id
            WHERE e.show_id = ? AND d.path IS NOT NULL
            """, [show]) { URL(fileURLWithPath: $0.string(0)) }
    }
}

extension LibraryStore {
    /// Complete downloads of episodes marked played before `cutoff` (and still played).
    public func playedDownloads(playedBefore cutoff: Date) throws -> [EpisodeID] {
        try connection.query("""
            SELECT d.episode_id FROM downloads d JOIN episodes e ON e.id = d.episode_id
            WHERE d.state = 'complete' AND e.played = 1 AND e.played_at < ?
            ORDER BY d.episode_id
            """, [cutoff.databaseSeconds]) { EpisodeID(rawValue: $0.int64(0)) }
    }
}
