import Bindings
import TrackcastCore
import TrackcastLibrary

/// A list of episodes across shows ("New", "In Progress", "Up Next"), read again
/// whenever the library or an episode changes, with a status page while
/// it is empty. Activating an episode plays it.
@MainActor
final class EpisodeListView {
    typealias Query = @MainActor (LibraryModel) async throws -> [EpisodeSummary]

    let root = ViewStack()
    private let episodes = ListStore<EpisodeSummary>()
    private let library: LibraryModel
    private let name: String
    private let query: Query
    private var loadTask: Task<Void, Never>?
    private let queueEnds: EpisodeRow.QueueEnds?

    init(library: LibraryModel, name: String, accessibleLabel: String, empty: StatusPage, isQueue: Bool = false,
         play: @escaping @MainActor (EpisodeSummary) -> Void, query: @escaping Query) {
        self.library = library
        self.name = name
        self.query = query
        // Dropping a queued episode on another moves it there, through the
        // same action as a script's `queue-move((xi))`.
        var dropped: EpisodeRow.QueueDrop?
        if isQueue {
            dropped = { [episodes, weak root] (dragged: EpisodeID, onto: EpisodeID, after: Bool) in
                let order: [EpisodeID] = (0..<episodes.count).compactMap { episodes.payload(at: $0)?.id }
                guard let index = UpNext.destination(moving: dragged, onto: onto, after: after, in: order) else { return }
                Log.debug("queue drop: \(dragged) \(after ? "after" : "before") \(onto), to place \(index)")
                let parameter = Variant(tuple: [Variant(dragged.rawValue), Variant(Int32(index))])
                root?.activateAction("app.queue-move", parameter: parameter)
            }
        }
        let queueEnds = isQueue ? EpisodeRow.QueueEnds() : nil
        self.queueEnds = queueEnds
        let list = ListView(model: episodes, factory: ListItemFactory { [dropped] in
            EpisodeRow(namesShow: true, queueEnds: queueEnds, dropped: dropped)
        })
        list.showSeparators(true)
        list.keepRowsOnlyWhileMapped()
        list.setAccessibleLabel(accessibleLabel)
        list.onActivate { [episodes] position in
            if let episode = episodes.payload(at: position) { play(episode) }
        }
        let scrolled = ScrolledWindow(child: list)
        scrolled.showOnlyWhileMapped(list)
        root.add(scrolled, name: "episodes")
        root.add(empty, name: "empty")
        root.visibleChildName = "empty"
        library.observeShows { [weak self] _ in self?.reload() }
        library.observeEpisodes { [weak self] _ in self?.reload() }
        if isQueue { library.observeQueue { [weak self] in self?.reload() } }
    }

    /// A newer reload replaces one still running, so results arrive in order.
    private func reload() {
        loadTask?.cancel()
        loadTask = Task { [weak self, library, query, name] in
            let items: [EpisodeSummary]
            do {
                items = try await query(library)
            } catch {
                if !(error is LibraryUnavailable) { Log.warning("cannot read \(name): \(error)") }
                return
            }
            guard let self, !Task.isCancelled else { return }
            self.queueEnds?.first = items.first?.id
            self.queueEnds?.last = items.last?.id
            self.episodes.update(to: items)
            self.root.visibleChildName = items.isEmpty ? "empty" : "episodes"
            Log.debug("\(name): \(items.count) episodes")
        }
    }
}
