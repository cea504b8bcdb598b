/// What applying a fetched feed did to the library.
public struct FeedApplyResult: Sendable, Equatable {
    public let showID: ShowID
    /// The feed URL was not in the library: this apply subscribed it.
    public let isNewShow: Bool
    public let inserted: Int
    public let updated: Int
    public let unchanged: Int
    /// Items whose identity an earlier item of the same feed already had;
    /// feeds do repeat guids, and the first item wins.
    public let duplicates: Int
    /// Episodes inserted or changed that list transcripts, in the feed's
    /// order (newest first, as feeds list them): what a refresh may fetch
    /// for the search index.
    public let writtenWithTranscripts: [EpisodeTranscripts]
    /// Episodes inserted into a show that had a feed applied before, in the
    /// feed's order: what arrived since the last refresh, never the back
    /// catalogue of a show just subscribed or imported. What automatic
    /// downloads consider (`LibraryStore.dueForAutoDownload`).
    public let arrivals: [EpisodeID]

    public init(showID: ShowID, isNewShow: Bool, inserted: Int, updated: Int, unchanged: Int, duplicates: Int,
                writtenWithTranscripts: [EpisodeTranscripts] = [], arrivals: [EpisodeID] = []) {
        self.showID = showID
        self.isNewShow = isNewShow
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.duplicates = duplicates
        self.writtenWithTranscripts = writtenWithTranscripts
        self.arrivals = arrivals
    }
}
