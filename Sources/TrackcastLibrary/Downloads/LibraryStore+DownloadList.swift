import Foundation

/// An episode with its download, for the list of downloads.
public struct DownloadListing: Sendable, Equatable, Identifiable {
    public let episode: EpisodeSummary
    public let download: DownloadRecord

    public var id: EpisodeID { episode.id }
}

extension LibraryStore {
    /// Every episode with a download record: running ones first, then
    /// failed, then complete, each most recently changed first.
    public func downloadList(limit: Int) throws -> [DownloadListing] {
        var reader = EpisodeSummaryQuery.Reader()
        return try connection.query("""
            SELECT \(EpisodeSummaryQuery.columns), d.path, d.bytes, d.total, d.error, d.updated FROM downloads d
            JOIN episodes e ON e.id = d.episode_id
            \(EpisodeSummaryQuery.showAndMedia)
            \(EpisodeSummaryQuery.resumePosition)
            ORDER BY CASE d.state WHEN 'downloading' THEN 0 WHEN 'queued' THEN 0 WHEN 'failed' THEN 1 ELSE 2 END,
                d.updated DESC, d.episode_id DESC
            LIMIT ?
            """, [limit]) { row in
            let summary = reader.read(row)
            return DownloadListing(episode: summary, download: DownloadRecord(
                state: summary.downloadState ?? .failed, file: row.optionalString(16).map { URL(fileURLWithPath: $0) },
                bytes: row.int64(17), total: row.optionalInt64(18), error: row.optionalString(19), updated: row.date(20)))
        }
    }
}
