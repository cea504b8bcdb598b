import Foundation

/// How long automatic syncs wait after failures: 30 s after the first,
/// doubling, at most an hour. Sync Now and the command line do not wait.
public enum SyncBackoff {
    public static func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        return min(3600, 30 * pow(2, Double(min(failures - 1, 20))))
    }
}
