/// One step of the library schema: the SQL that takes a database from
/// `version - 1` to `version`.
///
/// A migration that has shipped is never edited: users' databases already ran
/// it. Changes go into a new migration at the end of `LibrarySchema.migrations`.
struct SchemaMigration: Sendable {
    let version: Int
    let sql: String
}
