import Bindings
import TrackcastCore
import TrackcastLibrary

/// The play queue ("Up Next") as the app uses it: kept in the library,
/// mirrored here so that whether there is a next episode is known at once
/// (MPRIS's CanGoNext, keeping a background window open at the end of an
/// episode). Edits go to the library, then the mirror is read again.
@MainActor
final class UpNext {
    private let library: LibraryModel
    private(set) var episodes: [EpisodeSummary] = []
    private var observers: [@MainActor () -> Void] = []
    /// The newest queued edit, and how many have not run yet.
    private var lastEdit: Task<Void, Never>?
    private var pendingEdits = 0

    init(library: LibraryModel) {
        self.library = library
    }

    var isEmpty: Bool { episodes.isEmpty }

    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    func reload() async {
        do {
            episodes = try await library.openedStore().queue()
        } catch {
            if !(error is LibraryUnavailable) { Log.warning("cannot read the queue: \(error)") }
            return
        }
        Log.debug("queue: \(episodes.count) episodes")
        Log.debug("queue order: \(episodes.map { String($0.id.rawValue) }.joined(separator: " "))")
        for observer in observers { observer() }
        library.queueChanged()
    }

    func playNext(_ episode: EpisodeID) { edit { try await $0.enqueueFirst([episode]) } }
    func playLast(_ episode: EpisodeID) { edit { try await $0.enqueue([episode]) } }
    func remove(_ episode: EpisodeID) { edit { try await $0.removeFromQueue([episode]) } }
    func clear() { edit { try await $0.clearQueue() } }

    /// Moves an episode one place earlier.
    func moveUp(_ episode: EpisodeID) {
        guard let index = episodes.firstIndex(where: { $0.id == episode }), index > 0 else { return }
        move(episode, to: index - 1)
    }

    /// Moves an episode one place later.
    func moveDown(_ episode: EpisodeID) {
        guard let index = episodes.firstIndex(where: { $0.id == episode }), index + 1 < episodes.count else { return }
        move(episode, to: index + 1)
    }

    /// Where `moving` ends up (an index for `move(_:to:)`, counted without
    /// it) when dropped before or after `target` in `order`; nil when
    /// either is not in it.
    nonisolated static func destination(moving: EpisodeID, onto target: EpisodeID, after: Bool,
                                        in order: [EpisodeID]) -> Int? {
        guard order.contains(moving), moving != target,
              let targetIndex = order.filter({ $0 != moving }).firstIndex(of: target) else { return nil }
        return after ? targetIndex + 1 : targetIndex
    }

    func move(_ episode: EpisodeID, to index: Int) { edit { try await $0.moveInQueue(episode, to: index) } }

    /// Takes the first episode off the queue, to play it: off the mirror at
    /// once, so a second call right after takes the next one, not the same.
    func takeFirst() -> EpisodeSummary? {
        guard !episodes.isEmpty else { return nil }
        let first = episodes.removeFirst()
        edit { try await $0.removeFromQueue([first.id]) }
        return first
    }

    /// An episode that starts playing leaves the queue.
    func started(_ episode: EpisodeID) {
        guard episodes.contains(where: { $0.id == episode }) else { return }
        remove(episode)
    }

    /// Edits run one after another, in the order asked; the mirror is read
    /// again after the last, so a reload between two edits cannot bring
    /// back an episode the second one took (`takeFirst`).
    private func edit(_ change: @escaping @Sendable (LibraryStore) async throws -> Void) {
        let previous = lastEdit
        pendingEdits += 1
        lastEdit = Task {
            await previous?.value
            do {
                try await change(library.openedStore())
            } catch {
                Log.warning("cannot change the queue: \(error)")
            }
            pendingEdits -= 1
            if pendingEdits == 0 { await reload() }
        }
    }
}
