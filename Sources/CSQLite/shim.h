#pragma once
#include <sqlite3.h>

/// Turns SQLite's defensive mode on: no writes to the schema table, even
/// with writable_schema, and nothing else that can corrupt a database on
/// purpose. sqlite3_db_config is variadic, which Swift cannot call.
static inline int trackcast_sqlite3_set_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}
