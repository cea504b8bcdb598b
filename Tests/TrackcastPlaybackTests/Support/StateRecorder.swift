import Synchronization
import TrackcastCore

/// Records every state a store publishes, from a task of its own so that it
/// never waits for the main actor, and lets a test wait for one.
final class StateRecorder: Sendable {
    private let recorded = Mutex<[PlaybackState]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ store: PlaybackStateStore) async {
        // Unbounded: a test must see every state, not just the newest.
        let updates = await store.updates(bufferingPolicy: .unbounded)
        let started = Task.detached { [weak self] in
            for await state in updates { self?.recorded.withLock { $0.append(state) } }
        }
        task.withLock { $0 = started }
    }

    deinit { task.withLock { $0?.cancel() } }

    var states: [PlaybackState] { recorded.withLock { $0 } }

    func states(of id: PlaybackItemID) -> [PlaybackPhase] {
        states.filter { $0.itemID == id }.map(\.phase)
    }

    /// Waits until a recorded state matches, up to `timeout`; returns it.
    @discardableResult
    func waitFor(_ timeout: Duration = .seconds(15), _ predicate: @Sendable (PlaybackState) -> Bool) async -> PlaybackState? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = states.first(where: predicate) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return states.first(where: predicate)
    }

    /// Waits for item `id` to reach `phase`.
    @discardableResult
    func waitFor(_ phase: PlaybackPhase, of id: PlaybackItemID, timeout: Duration = .seconds(15)) async -> Bool {
        await waitFor(timeout) { $0.itemID == id && $0.phase == phase } != nil
    }

    /// Waits for item `id` to fail; returns the error.
    func failure(of id: PlaybackItemID, timeout: Duration = .seconds(20)) async -> PlaybackError? {
        let state = await waitFor(timeout) { $0.itemID == id && $0.phase.isFailure }
        if case .failed(let error)? = state?.phase { return error }
        return nil
    }

    func stop() { task.withLock { $0?.cancel() } }
}
