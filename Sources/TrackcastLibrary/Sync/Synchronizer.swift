import Foundation

/// Runs syncs with the account's server: one at a time (a sync asked for
/// while one runs waits for it and then runs, so nothing recorded meanwhile
/// is left for later), each sending what is pending and applying what other
/// devices sent (see `LibraryStore.applyRemoteSubscriptions(_:)` and
/// `LibraryStore.applyRemoteActions(_:ownDevice:since:)`).
///
/// Nothing is sent twice or lost: pending changes leave the library only
/// after the server took them, a change made again meanwhile stays, and a
/// batch a crash interrupted is checked against the server's answer first.
public actor Synchronizer {
    private let store: LibraryStore
    private let client: HTTPClient
    private var api: GPodderAPI?
    private var running: Task<SyncReport, any Error>?
    /// Actions per POST: 20,000 in one body would be several megabytes a server may refuse.
    static let batchSize = 5_000

    public init(store: LibraryStore, client: HTTPClient) {
        self.store = store
        self.client = client
    }

    /// One sync with `password`; records its result in the library (and, on
    /// failure, when the next automatic one may run). Throws `SyncError`.
    public func sync(password: String) async throws -> SyncReport {
        while let running { _ = try? await running.value }
        let task = Task { try await self.run(password: password) }
        running = task
        defer { running = nil }
        do {
            let report = try await task.value
            try await store.recordSyncResult(report.summary, succeeded: true)
            return report
        } catch {
            let failure = error as? SyncError ?? .malformedAnswer(String(describing: error))
            try? await store.recordSyncResult(failure.message, succeeded: false)
            throw failure
        }
    }

    private func run(password: String) async throws -> SyncReport {
        guard let status = try await store.syncStatus() else { throw SyncError.notLoggedIn }
        let api = self.api.flatMap { $0.account == status.account && $0.matches(password: password) ? $0 : nil }
            ?? GPodderAPI(account: status.account, password: password, client: client)
        self.api = api
        let requestsBefore = api.requests
        var report = SyncReport()
        let since = try await store.syncSince()

        let remote = try await api.subscriptions(since: since.subscriptions)
        let applied = try await store.applyRemoteSubscriptions(remote)
        report.receivedSubscriptionChanges = applied.added.count + applied.removed.count
        report.addedShows = applied.added
        report.removedShows = applied.removed

        let changes = try await store.pendingSubscriptionChanges()
        if !changes.isEmpty {
            let rewrites = try await api.sendSubscriptions(add: changes.filter(\.isAdd).map(\.feedURL),
                                                           remove: changes.filter { !$0.isAdd }.map(\.feedURL))
            try await store.markSent(changes)
            try await store.applyURLRewrites(rewrites)
            report.sentSubscriptionChanges = changes.count
        }

        let interrupted = try await store.pendingActions(interruptedOnly: true)
        let answer = try await api.actions(since: since.actions,
                                           skippingDevice: interrupted.isEmpty ? status.account.device : nil)
        if !interrupted.isEmpty {
            try await store.markSent(Self.delivered(interrupted, in: answer.actions, device: status.account.device))
            try await store.clearInFlight()
        }
        report.positions = try await store.applyRemoteActions(answer.actions, ownDevice: status.account.device,
                                                              since: answer.timestamp)

        let pending = try await store.pendingActions()
        for start in stride(from: 0, to: pending.count, by: Self.batchSize) {
            let batch = Array(pending[start..<min(start + Self.batchSize, pending.count)])
            try await store.markInFlight(batch)
            do {
                let rewrites = try await api.sendActions(batch.map(\.action))
                try await store.markSent(batch)
                try await store.applyURLRewrites(rewrites)
            } catch SyncError.status(let status) {
                // The server answered and refused: it has none of the batch.
                try await store.clearInFlight()
                throw SyncError.status(status)
            }
            // Any other failure (the connection dropped, a cancel) leaves the
            // batch marked: whether the server took it is known only from its
            // next answer, which the next sync reads before sending again.
            report.sentActions += batch.count
        }
        report.requests = api.requests - requestsBefore
        return report
    }

    /// The interrupted actions the server already has: it lists the same
    /// episode's action from this device at the same second, or a newer
    /// one from anywhere (which makes this one moot).
    static func delivered(_ interrupted: [PendingEpisodeAction], in remote: [EpisodeAction],
                          device: String) -> [PendingEpisodeAction] {
        var newest: [String: EpisodeAction] = [:]
        for action in remote where action.kind == .play || action.kind == .download || action.kind == .delete {
            let key = action.kind.rawValue + " " + action.episode
            if newest[key].map({ $0.timestamp < action.timestamp }) ?? true { newest[key] = action }
        }
        return interrupted.filter { pending in
            guard let server = newest[pending.action.kind.rawValue + " " + pending.action.episode] else { return false }
            let ours = pending.action.timestamp.timeIntervalSince1970.rounded(.down)
            let theirs = server.timestamp.timeIntervalSince1970.rounded(.down)
            return theirs > ours || (theirs == ours && server.device == device)
        }
    }
}
