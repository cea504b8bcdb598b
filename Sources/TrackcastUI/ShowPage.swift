import Bindings
import TrackcastCore
import TrackcastLibrary

/// One show: artwork, title, author and description over its episodes,
/// which can be filtered and sorted. Episodes load a page at a time into a
/// list that binds only the rows on screen, so a show with thousands of
/// episodes opens as fast as one with two.
@MainActor
final class ShowPage {
    /// A screenful first, so the list shows at once; then large pages, since
    /// every page is a query that skips the rows before it.
    private static let pageSize = 500
    private static let laterPageSize = 10_000
    private static let artworkSize: Int32 = 128

    let root = Box(.vertical)
    private let library: LibraryModel
    private let artworkCache: ArtworkCache
    private let artwork = Image(iconName: "application-rss+xml-symbolic", pixelSize: ShowPage.artworkSize)
    private let title = Label()
    private let author = Label()
    private let summary = Label()
    /// Why the feed's last refresh failed, until one succeeds.
    private let refreshFailure = Label()
    private let filter = DropDown(choices: [tr("All Episodes"), tr("Unplayed"), tr("In Progress"), tr("Downloaded")],
                                  accessibleLabel: tr("Which Episodes"))
    private let sort = DropDown(choices: [tr("Newest First"), tr("Oldest First")], accessibleLabel: tr("Episode Order"))
    private let showMenu = MenuButton(iconName: "view-more-symbolic", tooltip: tr("Show Menu"), menu: Menu())
    private let showSettings: ShowSettingsView
    private let content = ViewStack()
    private let episodes = ListStore<EpisodeSummary>()
    private let list: ListView
    private(set) var showID: ShowID?
    private var loadTask: Task<Void, Never>?

    init(library: LibraryModel, artworkCache: ArtworkCache, settings: AppSettings,
         play: @escaping @MainActor (EpisodeSummary) -> Void) {
        self.library = library
        self.artworkCache = artworkCache
        showSettings = ShowSettingsView(library: library, settings: settings)

        let header = Box(.horizontal, spacing: 18)
        header.setMargins(top: 18, bottom: 12, start: 18, end: 18)
        artwork.addCSSClass("card")
        artwork.align(horizontal: .start, vertical: .start)
        header.append(artwork)
        let text = Box(.vertical, spacing: 6)
        text.expandHorizontally()
        title.alignStart()
        title.wrap()
        title.addCSSClass("title-2")
        author.alignStart()
        author.wrap()
        author.addCSSClass("dim-label")
        summary.alignStart()
        summary.wrap(lines: 5)
        summary.makeSelectable()
        text.append(title)
        text.append(author)
        refreshFailure.alignStart()
        refreshFailure.wrap()
        refreshFailure.addCSSClass("warning")
        text.append(refreshFailure)
        text.append(summary)
        header.append(text)
        // Beside the title rather than after the filters, which leaves the
        // filters room in a 360-pixel window.
        let showButtons = Box(.vertical, spacing: 6)
        showButtons.align(horizontal: .end, vertical: .start)
        showButtons.append(MenuButton(iconName: "emblem-system-symbolic", tooltip: tr("Show Settings"),
                                      popover: showSettings.popover))
        showButtons.append(showMenu)
        header.append(showButtons)
        root.append(header)

        let controls = Box(.horizontal, spacing: 6)
        controls.setMargins(top: 0, bottom: 6, start: 18, end: 18)
        controls.append(filter)
        controls.append(sort)
        root.append(controls)

        list = ListView(model: episodes, factory: ListItemFactory { EpisodeRow() })
        list.showSeparators(true)
        list.keepRowsOnlyWhileMapped()
        list.setAccessibleLabel(tr("Episodes"))
        list.onActivate { [episodes] position in
            if let episode = episodes.payload(at: position) { play(episode) }
        }
        let scrolled = ScrolledWindow(child: list)
        scrolled.showOnlyWhileMapped(list)
        scrolled.untargetWhileScrolling(list) { targetable in
            Log.debug(targetable ? "show page: rows take the pointer again" : "show page: the pointer passes the rows while they scroll")
        }
        // For tests and scripts: scrolling left the top, or reached an end of the list.
        var isAtTop = true
        scrolled.onVerticalScroll { offset in
            if isAtTop, offset > 0 { Log.debug("show page: scrolled down from the top") }
            isAtTop = offset <= 0
        }
        scrolled.onEdgeReached { edge in Log.debug("show page: scrolled to the \(edge == .top ? "top" : "bottom")") }
        content.add(scrolled, name: "episodes")
        content.add(StatusPage(iconName: "edit-find-symbolic", title: tr("No Episodes"),
                               description: tr("No episode of this show matches the filter")), name: "none")
        content.expandVertically()
        root.append(content)

        // Before the list sees them: its rows go up and down, so left and
        // right are free to seek, as they do elsewhere in the window.
        let seekKeys = ShortcutController(phase: .capture)
        seekKeys.add(trigger: "Right", action: "app.seek-forward")
        seekKeys.add(trigger: "Left", action: "app.seek-backward")
        root.addController(seekKeys)

        filter.onSelectionChanged { [weak self] in self?.reload() }
        sort.onSelectionChanged { [weak self] in self?.reload() }
        library.observeEpisodes { [weak self] show in
            if show == self?.showID { self?.refreshLoaded() }
        }
    }

    private var currentFilter: EpisodeFilter {
        [EpisodeFilter.all, .unplayed, .inProgress, .downloaded][filter.selectedIndex]
    }

    private var currentSort: EpisodeSort { sort.selectedIndex == 0 ? .newestFirst : .oldestFirst }

    func present(_ show: Show) {
        showID = show.id
        title.text = show.title ?? show.feedURL.absoluteString
        author.text = show.author ?? ""
        author.isVisible = show.author != nil
        let failed = show.refresh.lastFailure.map(FailureText.refresh)
        refreshFailure.text = failed ?? ""
        refreshFailure.isVisible = failed != nil
        // Plain text from the feed, escaped, its web addresses made links.
        let summaryMarkup = SafeMarkup.fromPlainText(show.description ?? "")
        summary.setMarkup(summaryMarkup)
        // What GTK shows, read back from the labels (markup parsed away).
        Log.debug("show page title: \(title.text)")
        Log.debug("show page summary: \(summary.text) | markup: \(summaryMarkup)")
        summary.isVisible = show.description != nil
        artwork.setIconName("application-rss+xml-symbolic")
        if let url = show.imageURL {
            artworkCache.texture(for: url, size: Self.artworkSize) { [weak self] texture in
                guard self?.showID == show.id else { return }
                self?.artwork.setTexture(texture)
            }
        }
        let menu = Menu()
        menu.append(tr("_Unsubscribe…"), action: "app.unsubscribe(int64 \(show.id.rawValue))")
        showMenu.setMenu(menu)
        showSettings.present(show.id)
        filter.selectedIndex = 0
        sort.selectedIndex = 0
        reload()
    }

    /// Keyboard users land on the episodes, not on the first header button.
    /// The button that opened the page went with the page it was on, and GTK
    /// gave the focus to the first thing here that takes it, the selectable
    /// summary, which selected all its text on focus and keeps it selected
    /// when the focus moves on: so its selection is cleared.
    func focusEpisodes() {
        list.grabFocus()
        summary.clearSelection()
        Log.debug("show page: focus " + (list.containsFocus ? "on the episodes" : "elsewhere")
                  + ", summary " + (summary.hasSelection ? "selected" : "not selected"))
    }

    /// Loads the list from the start, a page at a time; a newer reload
    /// (another filter, another show) cancels this one.
    private func reload() {
        guard let showID else { return }
        loadTask?.cancel()
        let (filter, sort) = (currentFilter, currentSort)
        loadTask = Task { [weak self, library] in
            var offset = 0
            while !Task.isCancelled {
                let page: [EpisodeSummary]
                let limit = offset == 0 ? Self.pageSize : Self.laterPageSize
                do {
                    page = try await library.episodes(of: showID, filter: filter, sort: sort,
                                                      limit: limit, offset: offset)
                } catch {
                    Log.warning("cannot read the episodes of \(showID): \(error)")
                    return
                }
                guard let self, !Task.isCancelled else { return }
                if offset == 0 {
                    self.episodes.replaceAll(with: page)
                    self.content.visibleChildName = page.isEmpty ? "none" : "episodes"
                } else {
                    self.episodes.splice(at: self.episodes.count, removing: 0, inserting: page)
                }
                offset += page.count
                if page.count < limit { break }
            }
            Log.debug("show page: \(offset) episodes")
        }
    }

    /// Re-reads the first page after a play, a saved position or a refresh:
    /// when the same episodes are listed, only rows that changed are
    /// replaced, so the list keeps its scroll position; otherwise it reloads.
    private func refreshLoaded() {
        guard let showID else { return }
        let (filter, sort) = (currentFilter, currentSort)
        let count = min(episodes.count, Self.pageSize)
        Task { [weak self, library] in
            guard let fresh = try? await library.episodes(of: showID, filter: filter, sort: sort,
                                                           limit: Self.pageSize, offset: 0),
                  let self, self.showID == showID else { return }
            let sameRows = fresh.count == count || (count == Self.pageSize && fresh.count == Self.pageSize)
            guard sameRows, zip(fresh, 0..<count).allSatisfy({ $0.id == self.episodes.payload(at: $1)?.id }) else {
                self.reload()
                return
            }
            for index in 0..<count where self.episodes.payload(at: index) != fresh[index] {
                self.episodes.splice(at: index, removing: 1, inserting: [fresh[index]])
            }
        }
    }
}
