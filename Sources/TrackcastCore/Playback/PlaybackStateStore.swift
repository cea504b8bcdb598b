/// The playback state machine and its one publisher.
///
/// Every change names the load it belongs to. `begin(itemID:)` makes a load
/// the active one; `apply(_:for:)` drops whatever does not belong to it, so a
/// late event from an earlier load (an error arriving a second after the
/// user moved on) can never reach a subscriber. Duplicates are dropped too,
/// and a failure is final for its load.
public actor PlaybackStateStore {
    public private(set) var state = PlaybackState.initial
    private var subscribers: [Int: AsyncStream<PlaybackState>.Continuation] = [:]
    private var nextSubscriber = 0

    public init() {}

    /// Makes `itemID` the active load, in `loading`. IDs only move forward: a
    /// `begin` for an older load than the active one is ignored.
    public func begin(itemID: PlaybackItemID) {
        if let active = state.itemID, itemID <= active { return }
        publish(PlaybackState(itemID: itemID, phase: .loading))
    }

    /// Moves the active load to `phase`; returns whether that changed anything.
    @discardableResult
    public func apply(_ phase: PlaybackPhase, for itemID: PlaybackItemID) -> Bool {
        guard itemID == state.itemID else { return false }
        guard phase != state.phase, !state.phase.isFailure, phase != .loading else { return false }
        publish(PlaybackState(itemID: itemID, phase: phase))
        return true
    }

    /// The current state at once, then every change. With the default
    /// policy a slow subscriber gets the newest state, not a backlog; a log
    /// (or a test) that needs every state asks for `.unbounded`. Ends when
    /// the caller stops iterating.
    public func updates(bufferingPolicy: AsyncStream<PlaybackState>.Continuation.BufferingPolicy = .bufferingNewest(1))
        -> AsyncStream<PlaybackState> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackState.self, bufferingPolicy: bufferingPolicy)
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        continuation.yield(state)
        return stream
    }

    /// How many `updates()` streams are open.
    public var subscriberCount: Int { subscribers.count }

    private func removeSubscriber(_ id: Int) {
        subscribers[id] = nil
    }

    private func publish(_ newState: PlaybackState) {
        state = newState
        for continuation in subscribers.values { continuation.yield(newState) }
    }
}
