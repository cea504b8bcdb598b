import Synchronization

/// Identifies one load of one item. Every `load` gets a fresh ID, even for an
/// item played before, so events from an earlier load of the same episode are
/// told apart from the current one. IDs grow: a later load has a larger ID.
public struct PlaybackItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    private static let counter = Atomic<UInt64>(0)

    /// A new ID, larger than every ID made before it in this process.
    public static func next() -> PlaybackItemID {
        PlaybackItemID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    public static func < (lhs: PlaybackItemID, rhs: PlaybackItemID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}
