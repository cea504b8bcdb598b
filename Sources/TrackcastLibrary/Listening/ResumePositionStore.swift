import Foundation

/// Resume positions on their way to the library: the player records one
/// about every second, and `flush()` writes what has gathered every few
/// seconds and on pause, seek, item change, sleep and quit.
///
/// The flush is where a naive version goes wrong, because the save
/// suspends. If the pending positions are cleared only after the save
/// returns, a position recorded during the save is cleared unsaved (lost);
/// if two flushes overlap, both send the same batch (double-sent). So here a
/// flush takes the pending positions and clears them *before* it suspends,
/// only one flush runs at a time (a second one waits for it, then sends
/// what has arrived since), and a failed batch is merged back without
/// overwriting a newer position recorded meanwhile.
public actor ResumePositionStore {
    public typealias Save = @Sendable ([ResumePositionUpdate]) async throws -> Void

    private let save: Save
    private var pending: [ResumeKey: ResumePosition] = [:]
    /// The flush whose save is under way. It clears itself (on the actor)
    /// before it completes, so a waiter that wakes finds either nothing or a
    /// newer flush here, never a finished one it would spin on.
    private var inFlight: Task<Bool, Never>?
    /// The batch that flush is saving: no longer pending, not yet in the
    /// library, and still the newest word for its keys until it lands.
    private var sending: [ResumeKey: ResumePosition] = [:]
    /// Keys forgotten (played to the end) and when: a failed batch merged
    /// back must not bring their older positions back.
    private var forgotten: [ResumeKey: Date] = [:]

    public init(save: @escaping Save) {
        self.save = save
    }

    /// Notes where `key` is now; the newest recording per key wins.
    public func record(_ key: ResumeKey, position: TimeInterval, duration: TimeInterval?, at date: Date = Date()) {
        if let current = pending[key], current.updated > date { return }
        // A recording that was under way when the item finished.
        if let forgottenAt = forgotten[key], forgottenAt >= date { return }
        pending[key] = ResumePosition(position: position, duration: duration, updated: date)
    }

    /// The newest position recorded for `key` and not yet handed to a save, if any.
    public func pendingPosition(for key: ResumeKey) -> ResumePosition? { pending[key] }

    /// The newest position recorded for `key` that the library may not have
    /// yet: pending, or in the batch being saved right now.
    public func unsavedPosition(for key: ResumeKey) -> ResumePosition? { pending[key] ?? sending[key] }

    public var hasPending: Bool { !pending.isEmpty }

    /// Saves everything recorded before the call. Returns `false` if the
    /// save failed; the positions then stay pending for the next flush.
    @discardableResult
    public func flush() async -> Bool {
        // One flush at a time. Each wait may let another flush start, so
        // check again; between the loop's last check and `inFlight` being
        // set below there is no suspension.
        while let running = inFlight { _ = await running.value }
        guard !pending.isEmpty else { return true }
        let batch = pending
        pending.removeAll()
        sending = batch
        let task = Task { await self.send(batch) }
        inFlight = task
        return await task.value
    }

    /// Saves `batch`, merges it back if that fails, and ends the flush.
    private func send(_ batch: [ResumeKey: ResumePosition]) async -> Bool {
        defer {
            inFlight = nil
            sending = [:]
        }
        do {
            try await save(batch.map { ResumePositionUpdate(key: $0.key, position: $0.value.position,
                                                            duration: $0.value.duration, updated: $0.value.updated) })
            return true
        } catch {
            for (key, position) in batch {
                if let newer = pending[key], newer.updated >= position.updated { continue }
                if let forgottenAt = forgotten[key], forgottenAt >= position.updated { continue }
                pending[key] = position
            }
            return false
        }
    }

    /// Drops what is pending for `key` (it was played to the end) and waits
    /// for a save under way, so the caller's next library write (clearing the
    /// position) comes after it.
    public func forget(_ key: ResumeKey, at date: Date = Date()) async {
        pending[key] = nil
        sending[key] = nil
        forgotten[key] = date
        while let running = inFlight { _ = await running.value }
    }
}
