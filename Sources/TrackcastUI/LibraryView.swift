import Bindings
import TrackcastCore
import TrackcastLibrary

/// The library page: the grid of subscribed shows, new episodes, episodes
/// in progress, the queue and the downloads, switched between at the top; or the empty state
/// while there are no shows.
@MainActor
final class LibraryView {
    /// As many as a person scans; the lists are for picking up, not archives.
    private static let listLimit = 500

    let root = ViewStack()
    private let shows = ListStore<Show>()
    private let grid: GridView
    private let newEpisodes: EpisodeListView
    private let inProgress: EpisodeListView
    private let upNext: EpisodeListView
    private let downloads: DownloadsView
    private let pages = ViewStack()

    init(library: LibraryModel, artworkCache: ArtworkCache, openShow: @escaping @MainActor (ShowID) -> Void,
         play: @escaping @MainActor (EpisodeSummary) -> Void) {
        let emptyLibrary = EmptyLibraryView()
        root.add(emptyLibrary.page, name: "empty")

        grid = GridView(model: shows, factory: ListItemFactory { ShowTile(artworkCache: artworkCache) })
        grid.setColumns(minimum: 2, maximum: 12)
        grid.keepRowsOnlyWhileMapped()
        grid.setAccessibleLabel(tr("Shows"))
        grid.onActivate { [shows] position in
            if let show = shows.payload(at: position) { openShow(show.id) }
        }
        newEpisodes = EpisodeListView(
            library: library, name: "new episodes", accessibleLabel: tr("New Episodes"),
            empty: StatusPage(iconName: "object-select-symbolic", title: tr("No New Episodes"),
                              description: tr("Episodes that arrive with a refresh show here")),
            play: play) { try await $0.newEpisodes(limit: Self.listLimit) }
        inProgress = EpisodeListView(
            library: library, name: "in progress", accessibleLabel: tr("In Progress"),
            empty: StatusPage(iconName: "media-playback-start-symbolic", title: tr("Nothing in Progress"),
                              description: tr("Episodes you have started and not finished show here")),
            play: play) { try await $0.inProgressEpisodes(limit: Self.listLimit) }

        upNext = EpisodeListView(
            library: library, name: "up next", accessibleLabel: tr("Up Next"),
            empty: StatusPage(iconName: "view-list-symbolic", title: tr("Nothing Queued"),
                              description: tr("Episodes you choose to play next or last show here")),
            isQueue: true, play: play) { try await $0.openedStore().queue() }

        downloads = DownloadsView(library: library, play: play)
        let scrolledGrid = ScrolledWindow(child: grid)
        scrolledGrid.showOnlyWhileMapped(grid)
        scrolledGrid.untargetWhileScrolling(grid)
        pages.add(scrolledGrid, name: "shows", title: tr("_Shows"), iconName: "view-grid-symbolic")
        pages.add(newEpisodes.root, name: "new", title: tr("_New"), iconName: "starred-symbolic")
        pages.add(inProgress.root, name: "in-progress", title: tr("In _Progress"),
                  iconName: "media-playback-start-symbolic")
        pages.add(upNext.root, name: "up-next", title: tr("_Up Next"), iconName: "view-list-symbolic")
        pages.add(downloads.root, name: "downloads", title: tr("_Downloads"), iconName: "folder-download-symbolic")
        pages.expandVertically()
        let switcher = ViewSwitcher(stack: pages)
        switcher.align(horizontal: .center, vertical: .start)
        switcher.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        let content = Box(.vertical)
        content.append(switcher)
        content.append(pages)
        root.add(content, name: "library")
        root.visibleChildName = "empty"
        library.observeShows { [weak self] shows in self?.render(shows) }
    }

    private func render(_ list: [Show]) {
        shows.update(to: list)
        root.visibleChildName = list.isEmpty ? "empty" : "library"
    }

    func focusShows() { grid.grabFocus() }

    func showDownloads() { pages.visibleChildName = "downloads" }
}
