import CSQLite

/// One connection to a SQLite database file, with its prepared-statement cache.
///
/// Not `Sendable`: the connection is opened in SQLite's multi-thread mode (no
/// per-connection mutex), which is safe only while a single isolation domain
/// owns it. `LibraryStore`, an actor, is that owner.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// Keyed by SQL text. The library only runs SQL written in its source (values
    /// are always bound), so the cache is bounded by the number of distinct queries.
    private var cache: [String: SQLiteStatement] = [:]
    /// Set while `batch` runs: the transactions asked for meanwhile are parts of its one.
    private var isBatching = false
    /// Writes `executeAtCommit` holds back until the transaction commits, in order.
    private var heldWrites: [(sql: String, bindings: [any SQLiteBindable])] = []

    enum Access {
        /// Creates the file if need be and switches it to WAL: the library's own connection.
        case readWrite
        /// Never creates or writes the file (nor switches its journal
        /// mode): for looking at a file before trusting it.
        case readOnly
    }

    /// Opens the database at `path`, creating the file if it does not exist,
    /// in WAL mode with foreign keys enforced; `.readOnly`, as it is.
    ///
    /// Read-write, a file that is not a database fails here with
    /// `SQLITE_NOTADB`: switching the journal mode is the first thing that
    /// reads it. That switch writes to a file in rollback-journal mode, so
    /// a file not yet known to be sound is checked `.readOnly` first
    /// (`LibraryStore.openRecovering`).
    init(path: String, access: Access = .readWrite, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags = switch access {
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        }
        let result = sqlite3_open_v2(path, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            let error = SQLiteError(code: result, connection: connection)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(connection, Int32(clamping: milliseconds))
        // A library file can come from anywhere (a backup, another
        // machine, a stranger): its schema's views and triggers may not call
        // functions with side effects, and nothing may write the schema
        // table directly.
        // (A throw from here on closes the connection in deinit.)
        guard trackcast_sqlite3_set_defensive(connection) == SQLITE_OK else {
            throw SQLiteError(code: SQLITE_ERROR, connection: connection)
        }
        if access == .readOnly {
            try executeScript("PRAGMA trusted_schema = OFF;")
            return
        }
        // WAL lets readers run beside the writer, and with synchronous=NORMAL a
        // commit costs no fsync yet a crash (of the process) still loses nothing
        // committed; a power cut can lose only the last commits, never consistency.
        try executeScript("""
            PRAGMA trusted_schema = OFF;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = ON;
            """)
    }

    deinit {
        // Statements must be finalized before the connection closes for it to close at once.
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs one statement to completion, ignoring any rows it returns.
    func execute(_ sql: String, _ bindings: [any SQLiteBindable] = []) throws(SQLiteError) {
        try withStatement(sql, bindings) { statement throws(SQLiteError) in
            while try statement.step() {}
        }
    }

    /// Runs a write just before the current transaction commits instead of
    /// now (at once outside a transaction). Held writes run in the order
    /// they were held and are dropped if the transaction rolls back;
    /// `executeHeldWrites` runs them sooner, for a caller about to read or
    /// change what they write.
    ///
    /// This is for FTS5 tables. SQLite 3.40's FTS5 writes the rows it holds
    /// in memory out as a new segment at every statement savepoint, and any
    /// statement that fires a trigger opens one (an episode's insert does):
    /// a refresh's index rows became a segment per episode and table, each
    /// written, then read and merged again. Held to the end, a transaction's
    /// rows are one segment a table.
    func executeAtCommit(_ sql: String, _ bindings: [any SQLiteBindable]) throws(SQLiteError) {
        guard isInTransaction else { return try execute(sql, bindings) }
        heldWrites.append((sql, bindings))
    }

    /// Runs the writes `executeAtCommit` held, now.
    func executeHeldWrites() throws(SQLiteError) {
        guard !heldWrites.isEmpty else { return }
        let writes = heldWrites
        heldWrites.removeAll()
        for write in writes { try execute(write.sql, write.bindings) }
    }

    /// Runs one statement and reads every row it returns.
    func query<Row>(_ sql: String, _ bindings: [any SQLiteBindable] = [],
                    _ read: (SQLiteRow) -> Row) throws(SQLiteError) -> [Row] {
        try withStatement(sql, bindings) { statement throws(SQLiteError) in
            var rows: [Row] = []
            while try statement.step() { rows.append(read(statement.row)) }
            return rows
        }
    }

    /// Runs one statement and reads its first row, if any.
    func queryFirst<Row>(_ sql: String, _ bindings: [any SQLiteBindable] = [],
                         _ read: (SQLiteRow) -> Row) throws(SQLiteError) -> Row? {
        try withStatement(sql, bindings) { statement throws(SQLiteError) in
            try statement.step() ? read(statement.row) : nil
        }
    }

    /// Runs SQL text that may hold several statements and no parameters: schema
    /// migrations and connection set-up. Not cached.
    func executeScript(_ script: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, script, nil, nil, nil)
        guard result == SQLITE_OK else { throw SQLiteError(code: result, connection: handle) }
    }

    /// Runs `body` so that cancelling the current task stops the statement
    /// it is running within a few thousand SQLite instructions, not when the
    /// statement ends: `body` then throws `CancellationError`.
    ///
    /// A progress handler asks the running task, on the thread that runs
    /// the statement, and is there only for `body`: `sqlite3_interrupt`
    /// from the cancelling thread could land on whatever this connection
    /// runs next, such as another caller's write.
    func cancellable<T>(_ body: () throws -> T) throws -> T {
        try Task.checkCancellation()
        sqlite3_progress_handler(handle, 4_000, { _ in Task.isCancelled ? 1 : 0 }, nil)
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        do {
            return try body()
        } catch let error as SQLiteError where error.code == SQLITE_INTERRUPT {
            throw CancellationError()
        }
    }

    /// Runs `body` in one write transaction: all of its writes commit together,
    /// or, if it throws, none of them do. Writes held by `executeAtCommit`
    /// run last, before the commit.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front, so a second writer waits
    /// (up to the busy timeout) at the start instead of failing half-way.
    ///
    /// Inside `batch`, `body` joins the batch's transaction instead: its
    /// writes commit with the batch's, and if it throws, the batch's whole
    /// transaction is rolled back.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let ownsTransaction = !isBatching
        precondition(!ownsTransaction || !isInTransaction, "SQLite transactions do not nest")
        if ownsTransaction { try execute("BEGIN IMMEDIATE") }
        do {
            let value = try body()
            if ownsTransaction {
                try executeHeldWrites()
                try execute("COMMIT")
            }
            return value
        } catch {
            // Some errors make SQLite roll back by itself; roll back only what is
            // still open. If ROLLBACK itself fails the connection is unusable
            // anyway, and the caller needs the original error, not that one.
            if ownsTransaction {
                heldWrites.removeAll()
                if isInTransaction { try? execute("ROLLBACK") }
            }
            throw error
        }
    }

    /// Runs `body`, and every `transaction` it runs, in one transaction:
    /// a group commit. One commit writes the pages the parts share (the
    /// shows table, the search index's segments) once instead of once a part.
    /// If any part throws, none of them is kept; the caller runs them again
    /// each in its own transaction to keep the good ones.
    func batch<T>(_ body: () throws -> T) throws -> T {
        try transaction {
            isBatching = true
            defer { isBatching = false }
            return try body()
        }
    }

    /// A statement for `sql`, bound to `bindings`, for the duration of `body`.
    ///
    /// A cached statement is taken out of the cache while in use, so a nested
    /// use of the same SQL prepares a second one instead of disturbing the first.
    private func withStatement<T>(_ sql: String, _ bindings: [any SQLiteBindable],
                                  _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement: SQLiteStatement
        if let cached = cache.removeValue(forKey: sql) {
            statement = cached
        } else {
            statement = try SQLiteStatement(sql: sql, connection: handle)
        }
        defer {
            statement.reset()
            cache[sql] = statement
        }
        try statement.bind(bindings)
        return try body(statement)
    }
}
