/// Brings a database up to the newest schema, one migration per transaction,
/// recording progress in `PRAGMA user_version`.
struct SchemaMigrator {
    let migrations: [SchemaMigration]

    init(migrations: [SchemaMigration] = LibrarySchema.migrations) {
        precondition(migrations.map(\.version) == Array(1...migrations.count),
                     "schema migrations must be numbered 1, 2, 3, … in order")
        self.migrations = migrations
    }

    var latestVersion: Int { migrations.count }

    /// Runs every migration newer than the database, up to `target`.
    ///
    /// Throws `LibraryStoreError.schemaTooNew` without touching a database that
    /// a newer Trackcast has already migrated past what this one knows.
    func migrate(_ connection: SQLiteConnection, upTo target: Int? = nil) throws {
        let target = target ?? latestVersion
        let found = try Self.version(of: connection)
        guard found <= latestVersion else {
            throw LibraryStoreError.schemaTooNew(found: found, supported: latestVersion)
        }
        for migration in migrations where migration.version > found && migration.version <= target {
            try connection.transaction {
                // Re-read inside the write lock: another process may have run
                // this migration since we looked.
                guard try Self.version(of: connection) < migration.version else { return }
                try connection.executeScript(migration.sql)
                // PRAGMA takes no parameters; the value is a constant of this file, not input.
                try connection.executeScript("PRAGMA user_version = \(migration.version)")
            }
        }
    }

    static func version(of connection: SQLiteConnection) throws(SQLiteError) -> Int {
        try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }
}
