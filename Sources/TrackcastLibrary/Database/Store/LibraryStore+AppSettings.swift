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
}
