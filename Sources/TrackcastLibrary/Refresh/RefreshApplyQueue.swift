/// Hands a refresh's parsed feeds to the store, several to a transaction
/// when they come faster than the store commits them (a group commit).
///
/// A feed that arrives while the store is idle is applied at once, alone;
/// the feeds other hosts' tasks finish while that apply runs wait, and go
/// together in the next transaction (`LibraryStore.applyRefreshed(_:)`).
/// So batching adds no wait: it forms only where the store is the bottleneck,
/// and a batch holds at most a few feeds per host being refreshed
/// (`FeedRefresher.feedsBehindFetching`).
actor RefreshApplyQueue {
    private typealias Reply = CheckedContinuation<Result<RefreshApplication?, any Error>, Never>

    private let store: LibraryStore
    private var waiting: [(feed: RefreshedFeed, reply: Reply)] = []
    private var isApplying = false

    init(store: LibraryStore) {
        self.store = store
    }

    /// What `LibraryStore.applyRefreshed` did with `feed`: `nil` if the show
    /// was unsubscribed or moved meanwhile.
    func apply(_ feed: RefreshedFeed) async throws -> RefreshApplication? {
        try await withCheckedContinuation { (reply: Reply) in
            waiting.append((feed, reply))
            if !isApplying {
                isApplying = true
                Task { await applyWaiting() }
            }
        }.get()
    }

    private func applyWaiting() async {
        while !waiting.isEmpty {
            let batch = waiting
            waiting = []
            let results = await store.applyRefreshed(batch.map(\.feed))
            for (waiter, result) in zip(batch, results) { waiter.reply.resume(returning: result) }
        }
        isApplying = false
    }
}
