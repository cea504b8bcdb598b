import Foundation

extension LibraryStore {
    /// An app-wide setting stored with the library (so it travels with it).
    public func appSetting(_ key: String) throws -> String? {
        try connection.queryFirst("SELECT value FROM settings WHERE key = ?", [key]) { $0.string(0) }
    }

    /// Stores `value` under `key`; `nil` removes the setting.
    public func setAppSetting(_ key: String, to value: String?) throws {
        if let value {
            try connection.execute("""
                INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, [key, value])
        } else {
            try connection.execute("DELETE FROM settings WHERE key = ?", [key])
        }
    }

    /// When every show was last refreshed together (`FeedRefresher.refreshAll`),
    /// which the app's automatic refresh counts from; nil before the first,
    /// and for a value no refresh wrote (not a time between 1970 and 3000).
    public func lastFullRefresh() throws -> Date? {
        guard let seconds = try appSetting(Self.lastFullRefreshKey).flatMap(Double.init),
              (0...32_503_680_000).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    public func setLastFullRefresh(_ date: Date) throws {
        try setAppSetting(Self.lastFullRefreshKey, to: String(date.timeIntervalSince1970))
    }

    private static let lastFullRefreshKey = "refresh.last-full"
}
