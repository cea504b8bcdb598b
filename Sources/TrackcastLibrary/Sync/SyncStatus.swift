import Foundation

/// What Preferences and the automatic sync read: the account, how the last
/// sync went, and when the next automatic one may run.
public struct SyncStatus: Sendable, Equatable {
    public var account: SyncAccount
    public var lastSync: Date?
    /// The last sync's one-line result, as `SyncReport.summary` or a failure's message.
    public var lastResult: String?
    /// Failures since the last success.
    public var failures: Int
    /// Until when automatic syncs wait (backoff after failures).
    public var nextAttempt: Date?
}
