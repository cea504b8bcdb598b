/// Takes an existing library into the search index after the migration
/// that added it, a batch of episodes per transaction, so the store (an
/// actor) answers other calls between batches and the window never waits
/// for the whole library. Transcripts come from what is cached on disk;
/// nothing is fetched.
public struct SearchIndexBuilder: Sendable {
    public typealias CachedTranscript = @Sendable (EpisodeID, [FeedTranscript]) -> Transcript?

    private let store: LibraryStore
    private let cachedTranscript: CachedTranscript
    private let batchSize: Int

    /// - Parameter cachedTranscript: the transcript cached for an episode,
    ///   if any (`TranscriptFetcher.cachedTranscript(for:from:)`).
    public init(store: LibraryStore, batchSize: Int = 500, cachedTranscript: @escaping CachedTranscript) {
        self.store = store
        self.batchSize = batchSize
        self.cachedTranscript = cachedTranscript
    }

    /// Indexes what is left, reporting after each batch. Returns at once
    /// for a library already indexed. Cancelling stops between batches;
    /// the next run goes on from there.
    public func run(progress: @Sendable (SearchIndexBacklog) -> Void = { _ in }) async throws {
        var backlog = try await store.searchIndexBacklog()
        while !backlog.isDone {
            try Task.checkCancellation()
            for (episode, transcripts) in try await store.indexBacklogBatch(count: batchSize) {
                if let transcript = cachedTranscript(episode, transcripts) {
                    try await store.indexTranscript(transcript, of: episode)
                }
            }
            backlog = try await store.searchIndexBacklog()
            progress(backlog)
        }
    }
}
