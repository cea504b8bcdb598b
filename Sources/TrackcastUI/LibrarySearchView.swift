import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// The library's search (Ctrl+F): an entry searched at every keystroke,
/// results grouped by show then episode, each episode saying where its
/// words were found (its title, its notes, a chapter "12:03 Intro", a
/// transcript "41:10 … the words …"), and a way on to Discover to search
/// the directory for the same words.
///
/// The index answers a query in milliseconds, so there is no search
/// button; a newer keystroke cancels the query before it. Results are
/// capped (`episodeLimit`): a search that needs more wants more words.
@MainActor
final class LibrarySearchView {
    let root = Box(.vertical)
    private let entry = SearchEntry(placeholder: tr("Search Library"))
    private let content = ViewStack()
    private let scroller: ScrolledWindow
    private let directorySearch = Button(label: "")
    /// Shown while an older library's search index is being built.
    private let indexing = Label()
    private let library: LibraryModel
    private var searchTask: Task<Void, Never>?
    /// What the results on screen are for.
    private(set) var shownText = ""

    /// Episodes shown at most; each with up to `placesPerEpisode` of its matches.
    static let episodeLimit = 50
    static let placesPerEpisode = 3

    init(library: LibraryModel) {
        self.library = library
        let bar = Box(.horizontal, spacing: 6)
        bar.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        entry.expandHorizontally()
        bar.append(entry)
        root.append(bar)
        indexing.addCSSClass("dim-label")
        indexing.addCSSClass("caption")
        indexing.setMargins(bottom: 6, start: 12, end: 12)
        indexing.alignStart()
        indexing.isVisible = false
        root.append(indexing)

        content.add(StatusPage(iconName: "system-search-symbolic", title: tr("Search Your Library"),
                               description: tr("Episode titles, show notes, chapters and what was said")), name: "start")
        let none = StatusPage(iconName: "edit-find-symbolic", title: tr("No Results"), description: "")
        content.add(none, name: "none")
        scroller = ScrolledWindow(child: Box(.vertical))
        content.add(scroller, name: "results")
        content.expandVertically()
        content.visibleChildName = "start"
        root.append(content)

        directorySearch.addCSSClass("pill")
        directorySearch.align(horizontal: .center, vertical: .start)
        directorySearch.setMargins(top: 6, bottom: 12, start: 12, end: 12)
        directorySearch.isVisible = false
        directorySearch.onClicked { [weak self] in
            guard let self else { return }
            root.activateAction("app.discover-search", parameter: Variant(shownText))
        }
        root.append(directorySearch)

        entry.onSearchChanged { [weak self] in
            guard let self else { return }
            search(entry.text)
        }
        library.observeSearchIndex { [weak self] in self?.searchIndexChanged() }
        searchIndexChanged()
    }

    /// While an older library is indexed, says how far it is, and searches
    /// again as more of it can be found.
    private func searchIndexChanged() {
        if let backlog = library.searchIndexBacklog {
            let done = backlog.total - backlog.remaining
            indexing.text = String(format: tr("Indexing the library: %lld of %lld episodes so far"),
                                   Int64(done), Int64(backlog.total))
            indexing.isVisible = true
        } else {
            indexing.isVisible = false
        }
        if !entry.text.isEmpty { search(entry.text) }
    }

    /// Puts the keyboard in the entry.
    func focusSearch() { entry.grabFocus() }

    /// Searches for `text` as if typed (the `search(s)` action).
    func search(for text: String) {
        if entry.text != text { entry.text = text }
        search(text)
    }

    private func search(_ text: String) {
        searchTask?.cancel()
        let query = SearchQuery(text)
        guard !query.isEmpty else {
            shownText = ""
            content.visibleChildName = "start"
            directorySearch.isVisible = false
            return
        }
        searchTask = Task { [weak self, library] in
            let results = await library.search(text)
            guard let self, !Task.isCancelled else { return }
            show(results, for: text)
        }
    }

    private func show(_ results: SearchResults, for text: String) {
        shownText = text
        directorySearch.setLabel(String(format: tr("Search the Directory for “%@”"), text.trimmingCharacters(in: .whitespaces)))
        directorySearch.isVisible = true
        guard !results.isEmpty else {
            content.visibleChildName = "none"
            Log.debug("library search: 0 episodes for “\(text)”")
            return
        }
        let list = Box(.vertical, spacing: 6)
        list.setMargins(top: 6, bottom: 12, start: 12, end: 12)
        var shown = 0
        var lines: [String] = []
        for show in results.shows where shown < Self.episodeLimit {
            let heading = Label(show.title ?? tr("Untitled show"))
            heading.alignStart()
            heading.ellipsize()
            heading.addCSSClass("heading")
            heading.setMargins(top: 12)
            list.append(heading)
            let rows = ListBox()
            for episode in show.episodes.prefix(Self.episodeLimit - shown) {
                let row = LibrarySearchResultRow(episode)
                rows.append(row.button)
                lines.append("library search result: \(heading.text) | \(row.text)")
                shown += 1
            }
            list.append(rows)
        }
        scroller.setChild(list)
        content.visibleChildName = "results"
        Log.debug("library search: \(results.episodes.count) episodes in \(results.shows.count) shows for “\(text)”")
        for line in lines { Log.debug(line) }
    }
}
