import Bindings
import TrackcastCore
import TrackcastLibrary

/// The library page: the grid of subscribed shows, or the empty state
/// while there are none.
@MainActor
final class LibraryView {
    let root = ViewStack()
    private let shows = ListStore<Show>()
    private let grid: GridView

    init(library: LibraryModel, artworkCache: ArtworkCache, openShow: @escaping @MainActor (ShowID) -> Void) {
        let emptyLibrary = EmptyLibraryView()
        root.add(emptyLibrary.page, name: "empty")
        grid = GridView(model: shows, factory: ListItemFactory { ShowTile(artworkCache: artworkCache) })
        grid.setColumns(minimum: 2, maximum: 12)
        grid.setAccessibleLabel(tr("Shows"))
        grid.onActivate { [shows] position in
            if let show = shows.payload(at: position) { openShow(show.id) }
        }
        root.add(ScrolledWindow(child: grid), name: "shows")
        root.visibleChildName = "empty"
        library.observeShows { [weak self] shows in self?.render(shows) }
    }

    private func render(_ list: [Show]) {
        shows.replaceAll(with: list)
        root.visibleChildName = list.isEmpty ? "empty" : "shows"
    }

    func focusShows() { grid.grabFocus() }
}
