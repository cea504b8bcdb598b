import Foundation

/// The sync account and its pending changes (schema version 5). The changes
/// themselves are recorded by triggers; here they are read, marked sent, and
/// the server's changes applied without being recorded again.
extension LibraryStore {
    public func syncStatus() throws -> SyncStatus? {
        try connection.queryFirst("""
            SELECT server, user, device, kind, last_sync, last_result, failures, next_attempt FROM sync_account
            """) { row -> SyncStatus? in
            guard let server = URL(string: row.string(0)), let kind = SyncServerKind(rawValue: row.string(3)) else { return nil }
            return SyncStatus(account: SyncAccount(server: server, user: row.string(1), device: row.string(2), kind: kind),
                              lastSync: row.optionalDouble(4).map(Date.init(timeIntervalSince1970:)),
                              lastResult: row.optionalString(5), failures: row.int(6),
                              nextAttempt: row.optionalDouble(7).map(Date.init(timeIntervalSince1970:)))
        } ?? nil
    }

    /// Starts syncing as `account`: forgets any earlier account's state, and
    /// queues every show as an addition, so the server learns the library.
    /// Logging in again as the same account (a password entered anew after a
    /// 401) keeps the pending changes and where the last sync left off.
    public func startSync(_ account: SyncAccount) throws {
        try connection.transaction {
            let same = try connection.queryFirst(
                "SELECT 1 FROM sync_account WHERE server = ? AND user = ? AND device = ?",
                [account.server.absoluteString, account.user, account.device]) { _ in true } ?? false
            if same {
                try connection.execute("UPDATE sync_account SET kind = ?, failures = 0, next_attempt = NULL",
                                       [account.kind.rawValue])
                return
            }
            try clearSyncState()
            try connection.execute("INSERT INTO sync_account (id, server, user, device, kind) VALUES (1, ?, ?, ?, ?)",
                                   [account.server.absoluteString, account.user, account.device, account.kind.rawValue])
            try connection.execute("""
                INSERT INTO sync_pending_subscriptions (feed_url, change, revision)
                SELECT feed_url, 'add', row_number() OVER (ORDER BY id) FROM shows
                """)
        }
    }

    /// Forgets the account and what was not sent; the library stays.
    public func stopSync() throws {
        try connection.transaction { try clearSyncState() }
    }

    private func clearSyncState() throws {
        try connection.execute("DELETE FROM sync_account")
        try connection.execute("DELETE FROM sync_pending_subscriptions")
        try connection.execute("DELETE FROM sync_pending_actions")
    }

    public func syncSince() throws -> (subscriptions: Int64, actions: Int64) {
        try connection.queryFirst("SELECT subscriptions_since, actions_since FROM sync_account") {
            ($0.int64(0), $0.int64(1))
        } ?? (0, 0)
    }

    public func pendingSubscriptionChanges() throws -> [PendingSubscriptionChange] {
        try connection.query("SELECT feed_url, change, revision FROM sync_pending_subscriptions ORDER BY revision") {
            PendingSubscriptionChange(feedURL: $0.string(0), isAdd: $0.string(1) == "add", revision: $0.int64(2))
        }
    }

    /// Drops the changes the server took, unless the feed changed again since.
    public func markSent(_ changes: [PendingSubscriptionChange]) throws {
        try connection.transaction {
            for change in changes {
                try connection.execute("DELETE FROM sync_pending_subscriptions WHERE feed_url = ? AND revision = ?",
                                       [change.feedURL, change.revision])
            }
        }
    }

    /// What waits to be sent; `interruptedOnly` reads just the batch a
    /// crashed or cut-off sync left marked in flight.
    public func pendingActions(interruptedOnly: Bool = false) throws -> [PendingEpisodeAction] {
        try connection.query("""
            SELECT id, podcast, episode, guid, action, timestamp, position, total
            FROM sync_pending_actions WHERE in_flight >= ? ORDER BY timestamp, id
            """, [interruptedOnly ? 1 : 0]) { row -> PendingEpisodeAction? in
            guard let kind = EpisodeAction.Kind(rawValue: row.string(4)) else { return nil }
            let action = EpisodeAction(podcast: row.string(1), episode: row.string(2), guid: row.optionalString(3),
                                       kind: kind, timestamp: Date(timeIntervalSince1970: row.double(5)),
                                       position: row.optionalDouble(6), total: row.optionalDouble(7))
            return PendingEpisodeAction(id: row.int64(0), action: action)
        }.compactMap { $0 }
    }

    /// Marks a batch as on its way, committed before the POST starts: a crash
    /// during it leaves the mark for the next sync to check. One statement
    /// for the batch (`SQLiteValue.jsonArray`).
    public func markInFlight(_ actions: [PendingEpisodeAction]) throws {
        try connection.execute("UPDATE sync_pending_actions SET in_flight = 1 WHERE id IN (SELECT value FROM json_each(?))",
                               [SQLiteValue.jsonArray(actions.lazy.map(\.id))])
    }

    /// A POST failed: the batch is pending again, as it was.
    public func clearInFlight() throws {
        try connection.execute("UPDATE sync_pending_actions SET in_flight = 0 WHERE in_flight = 1")
    }

    /// Drops the actions the server took, unless a newer one replaced them
    /// meanwhile: every trigger that replaces a pending action clears its
    /// in-flight mark, so a row still marked is the one that was sent.
    public func markSent(_ actions: [PendingEpisodeAction]) throws {
        try connection.execute("""
            DELETE FROM sync_pending_actions WHERE in_flight = 1 AND id IN (SELECT value FROM json_each(?))
            """, [SQLiteValue.jsonArray(actions.lazy.map(\.id))])
    }

    /// Applies other devices' subscription changes, without recording them
    /// as changes to send. A feed with a change of its own still pending
    /// keeps it (the newer word is this device's). Removing a show is the
    /// user's own unsubscribe: the show and everything under it. Returns the
    /// shows added (to be fetched) and removed (with their download files, to be deleted).
    public func applyRemoteSubscriptions(_ changes: SubscriptionChanges)
        throws -> (added: [ShowID], removed: [(show: Show, files: [URL])]) {
        try connection.transaction {
            try connection.execute("UPDATE sync_account SET applying = 1")
            let pending = Set(try connection.query("SELECT feed_url FROM sync_pending_subscriptions") { $0.string(0) })
            let writer = FeedRowWriter(connection: connection)
            var added: [ShowID] = []
            for text in changes.add where !pending.contains(text) {
                guard let url = Self.feedURL(text) else { continue }
                let known = try connection.queryFirst("SELECT 1 FROM shows WHERE feed_url = ?", [url]) { _ in true } ?? false
                guard !known else { continue }
                added.append(try writer.insertShow(feedURL: url, subscribed: Date()))
            }
            var removed: [(show: Show, files: [URL])] = []
            for text in changes.remove where !pending.contains(text) {
                guard let url = URL(string: text), let show = try show(feedURL: url) else { continue }
                let files = try downloadFiles(ofShow: show.id)
                try SearchIndexWriter(connection: connection).removeShow(show.id)
                try connection.execute("DELETE FROM shows WHERE id = ?", [show.id])
                removed.append((show, files))
            }
            if !removed.isEmpty { try QueueOrder(connection: connection).renumber() }
            try connection.execute("UPDATE sync_account SET applying = 0, subscriptions_since = ?", [changes.timestamp])
            return (added, removed)
        }
    }

    /// The server rewrote feed URLs it was sent (gpodder.net's `update_urls`,
    /// e.g. a canonical form): the shows follow, unless another show already has the new URL.
    public func applyURLRewrites(_ rewrites: [(old: String, new: String)]) throws {
        guard !rewrites.isEmpty else { return }
        try connection.transaction {
            try connection.execute("UPDATE sync_account SET applying = 1")
            for (old, new) in rewrites {
                guard let newURL = Self.feedURL(new) else { continue }
                let taken = try connection.queryFirst("SELECT 1 FROM shows WHERE feed_url = ?", [newURL]) { _ in true } ?? false
                if !taken { try connection.execute("UPDATE shows SET feed_url = ? WHERE feed_url = ?", [newURL, old]) }
                try connection.execute("UPDATE OR REPLACE sync_pending_subscriptions SET feed_url = ? WHERE feed_url = ?", [new, old])
                try connection.execute("UPDATE sync_pending_actions SET podcast = ? WHERE podcast = ?", [new, old])
            }
            try connection.execute("UPDATE sync_account SET applying = 0")
        }
    }

    /// Applies other devices' episode actions (the newest per episode). A
    /// play moves the resume position only when it is newer than the one
    /// here (the same newest-wins rule as `savePositions`); one at the end
    /// marks the episode played. Actions from this device, and for episodes
    /// not in the library (`matchEpisode`), are skipped.
    public func applyRemoteActions(_ actions: [EpisodeAction], ownDevice: String, since: Int64)
        throws -> [AppliedRemotePosition] {
        try connection.transaction {
            try connection.execute("UPDATE sync_account SET applying = 1")
            var applied: [AppliedRemotePosition] = []
            for action in actions where action.kind == .play && action.device != ownDevice {
                guard let position = action.position, let episode = try matchEpisode(action) else { continue }
                let local = try connection.queryFirst("SELECT updated FROM resume_positions WHERE episode_id = ?",
                                                      [episode]) { $0.double(0) }
                let pendingNewer = try connection.queryFirst("""
                    SELECT 1 FROM sync_pending_actions WHERE episode = ? AND action = 'play' AND timestamp >= ?
                    """, [action.episode, action.timestamp.timeIntervalSince1970]) { _ in true } ?? false
                let playedAt = try connection.queryFirst("SELECT played_at FROM episodes WHERE id = ?", [episode]) {
                    $0.optionalDouble(0)
                } ?? nil
                let stamp = action.timestamp.timeIntervalSince1970
                guard !pendingNewer, local.map({ stamp > $0 }) ?? true, playedAt.map({ stamp > $0 }) ?? true else { continue }
                // This device's older position for it is moot now: not sent.
                try connection.execute("DELETE FROM sync_pending_actions WHERE episode = ? AND action = 'play'",
                                       [action.episode])
                let total = action.total
                if ResumePolicy.isFinished(position: position, duration: total) {
                    try connection.execute("UPDATE episodes SET played = 1, is_new = 0 WHERE id = ? AND played = 0", [episode])
                    try connection.execute("DELETE FROM resume_positions WHERE episode_id = ?", [episode])
                    applied.append(AppliedRemotePosition(episode: episode, position: position, device: action.device, finished: true))
                } else {
                    try connection.execute("""
                        INSERT INTO resume_positions (episode_id, position, duration, updated) VALUES (?1, ?2, ?3, ?4)
                        ON CONFLICT (episode_id) DO UPDATE SET position = excluded.position,
                            duration = coalesce(excluded.duration, resume_positions.duration), updated = excluded.updated
                        """, [episode, position, total, stamp])
                    applied.append(AppliedRemotePosition(episode: episode, position: position, device: action.device, finished: false))
                }
            }
            try connection.execute("UPDATE sync_account SET applying = 0, actions_since = ?", [since])
            return applied
        }
    }

    /// An action's episode: by guid within the feed, then by media URL, then
    /// by the feed and an episode whose title is the media file's name.
    private func matchEpisode(_ action: EpisodeAction) throws -> EpisodeID? {
        if let guid = action.guid, let found = try connection.queryFirst("""
            SELECT e.id FROM episodes e JOIN shows s ON s.id = e.show_id WHERE e.guid = ? ORDER BY s.feed_url = ? DESC LIMIT 1
            """, [guid, action.podcast], { EpisodeID(rawValue: $0.int64(0)) }) {
            return found
        }
        if let found = try connection.queryFirst("SELECT episode_id FROM enclosures WHERE url = ? LIMIT 1", [action.episode],
                                                 { EpisodeID(rawValue: $0.int64(0)) }) {
            return found
        }
        let title = URL(string: action.episode)?.deletingPathExtension().lastPathComponent ?? ""
        guard !title.isEmpty else { return nil }
        return try connection.queryFirst("""
            SELECT e.id FROM episodes e JOIN shows s ON s.id = e.show_id WHERE s.feed_url = ? AND e.title = ? LIMIT 1
            """, [action.podcast, title]) { EpisodeID(rawValue: $0.int64(0)) }
    }

    /// Records how a sync ended: success resets the backoff; a failure
    /// counts and pushes the next automatic attempt out.
    public func recordSyncResult(_ result: String, succeeded: Bool, at now: Date = Date()) throws {
        if succeeded {
            try connection.execute("""
                UPDATE sync_account SET last_sync = ?, last_result = ?, failures = 0, next_attempt = NULL
                """, [now.timeIntervalSince1970, result])
        } else {
            let failures = (try connection.queryFirst("SELECT failures FROM sync_account") { $0.int(0) } ?? 0) + 1
            try connection.execute("""
                UPDATE sync_account SET last_sync = ?, last_result = ?, failures = ?, next_attempt = ?
                """, [now.timeIntervalSince1970, result, failures,
                      now.timeIntervalSince1970 + SyncBackoff.delay(afterFailures: failures)])
        }
    }

    /// A feed URL from a server: absolute http(s) only.
    private static func feedURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else { return nil }
        return url
    }
}
