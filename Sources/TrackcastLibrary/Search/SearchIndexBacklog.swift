/// What an existing library still has to index after the migration that
/// added the search index: its episodes with ids up to `through`.
public struct SearchIndexBacklog: Sendable, Equatable {
    /// Episodes left to index.
    public let remaining: Int
    /// The episodes of the library when the index was added.
    public let total: Int

    public var isDone: Bool { remaining == 0 }
}
