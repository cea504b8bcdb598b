import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// Discover: the one place to find shows. A search of a podcast directory
/// (Apple's, or Podcast Index when it has a key), with each result's
/// artwork and a Subscribe button; and, before any search, adding a show
/// by its address or importing subscriptions from another app.
@MainActor
final class DiscoverView {
    let root = Box(.vertical)
    private let entry = SearchEntry(placeholder: tr("Search Podcasts"))
    private let directoryChoice: DropDown
    private let content = ViewStack()
    private let spinner = Spinner()
    private let results = ListStore<DirectoryResult>()
    private let noResults = StatusPage(iconName: "edit-find-symbolic", title: tr("No Results"), description: "")
    private let failure = StatusPage(iconName: "network-error-symbolic", title: tr("Search Failed"), description: "")
    private var directories: [any PodcastDirectory]
    private let marks: SubscriptionMarks
    private var searchTask: Task<Void, Never>?
    /// What the results, or the failure, are for: Retry searches it again.
    private var lastTerm = ""

    /// - Parameter subscribe: a result's Subscribe button was pressed.
    init(library: LibraryModel, directories: [any PodcastDirectory], artworkCache: ArtworkCache,
         subscribe: @escaping @MainActor (DirectoryResult) -> Void) {
        self.directories = directories
        marks = SubscriptionMarks(library: library)
        directoryChoice = DropDown(choices: directories.map(\.name), accessibleLabel: tr("Directory"))
        directoryChoice.isVisible = directories.count > 1

        let bar = Box(.horizontal, spacing: 6)
        bar.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        entry.expandHorizontally()
        bar.append(entry)
        bar.append(directoryChoice)
        root.append(bar)

        let start = StatusPage(iconName: "system-search-symbolic", title: tr("Discover Podcasts"),
                               description: tr("Search by title, topic or host, or add a show you know"))
        start.setChild(Self.addButtons())
        content.add(start, name: "start")
        spinner.align(horizontal: .center, vertical: .center)
        spinner.setSizeRequest(width: 32, height: 32)
        content.add(spinner, name: "searching")
        let list = ListView(model: results, factory: ListItemFactory { [marks] in
            DirectoryResultRow(artworkCache: artworkCache, marks: marks, subscribe: subscribe)
        })
        list.showSeparators(true)
        list.setAccessibleLabel(tr("Search Results"))
        content.add(ScrolledWindow(child: list), name: "results")
        noResults.setChild(Self.addButtons())
        content.add(noResults, name: "none")
        let retry = Button(label: tr("_Retry"))
        retry.addCSSClass("pill")
        retry.align(horizontal: .center, vertical: .start)
        retry.onClicked { [weak self] in self?.search(self?.lastTerm ?? "") }
        failure.setChild(retry)
        content.add(failure, name: "failed")
        content.expandVertically()
        content.visibleChildName = "start"
        root.append(content)

        entry.onActivate { [weak self] in
            guard let self else { return }
            search(entry.text)
        }
        // Searching asks a web service, so only Enter does it; clearing the
        // entry goes back to the start.
        entry.onSearchChanged { [weak self] in
            guard let self, entry.text.isEmpty else { return }
            searchTask?.cancel()
            spinner.isSpinning = false
            content.visibleChildName = "start"
        }
        directoryChoice.onSelectionChanged { [weak self] in
            guard let self, !lastTerm.isEmpty else { return }
            search(lastTerm)
        }
    }

    private static func addButtons() -> Widget {
        let buttons = Box(.vertical, spacing: 12)
        buttons.align(horizontal: .center, vertical: .start)
        let add = Button(label: tr("_Add by Address…"), action: "app.add-podcast")
        add.addCSSClass("pill")
        let importSubscriptions = Button(label: tr("_Import Subscriptions…"), action: "app.import-opml")
        importSubscriptions.addCSSClass("pill")
        buttons.append(add)
        buttons.append(importSubscriptions)
        return buttons
    }

    /// The directories to choose from changed (a Podcast Index key was set
    /// or cleared in Preferences); the first is chosen again.
    func setDirectories(_ directories: [any PodcastDirectory]) {
        guard !directories.isEmpty else { return }
        self.directories = directories
        directoryChoice.setChoices(directories.map(\.name))
        directoryChoice.isVisible = directories.count > 1
        Log.debug("discover: directories \(directories.map(\.name).joined(separator: ", "))")
    }

    /// Puts the keyboard in the search entry.
    func focusSearch() { entry.grabFocus() }

    /// Searches the directory for `text`, as typed and Enter pressed.
    func search(for text: String) {
        entry.text = text
        search(text)
    }

    /// A subscription from these results ended; its button says so.
    func subscriptionEnded(_ feedAddress: String, succeeded: Bool) {
        marks.ended(feedAddress, succeeded: succeeded)
    }

    /// Searches the chosen directory; a newer search cancels this one.
    private func search(_ text: String) {
        let term = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !term.isEmpty else { return }
        lastTerm = term
        searchTask?.cancel()
        let directory = directories[min(directoryChoice.selectedIndex, directories.count - 1)]
        content.visibleChildName = "searching"
        spinner.isSpinning = true
        Log.debug("discover: searching \(directory.name) for “\(term)”")
        searchTask = Task { [weak self] in
            let outcome: Result<[DirectoryResult], any Error>
            do {
                outcome = .success(try await directory.search(term))
            } catch is CancellationError {
                return
            } catch {
                outcome = .failure(error)
            }
            guard let self, !Task.isCancelled else { return }
            spinner.isSpinning = false
            switch outcome {
            case .success(let found):
                results.replaceAll(with: found)
                if found.isEmpty {
                    noResults.setDescription(String(format: tr("Nothing matches “%@”. Try other words, or add the show by its address."), term))
                }
                content.visibleChildName = found.isEmpty ? "none" : "results"
                Log.debug("discover: \(found.count) results for “\(term)”")
                for result in found { Log.debug("discover result: \(result.title) <\(result.feedURL.absoluteString)>") }
            case .failure(let error):
                Log.debug("discover: search failed: \(error)")
                failure.setDescription(FailureText.directorySearch(error))
                content.visibleChildName = "failed"
            }
        }
    }
}

/// Which results' shows are in the library, or being added, for the rows'
/// Subscribe buttons. Rows are recycled, so each row registers once and is
/// told to look again when anything changes.
@MainActor
final class SubscriptionMarks {
    private var subscribedFeeds: Set<String> = []
    private var pending: Set<String> = []
    /// Results subscribed from here, by the address the directory gave: a
    /// show's stored address may differ (a redirect).
    private var added: Set<String> = []
    private let rows = RowRegistry<DirectoryResultRow>()

    init(library: LibraryModel) {
        library.observeShows { [weak self] shows in
            guard let self else { return }
            subscribedFeeds = Set(shows.map(\.feedURL.absoluteString))
            changed()
        }
    }

    func register(_ row: DirectoryResultRow) { rows.register(row) }

    enum Mark { case subscribe, adding, subscribed }

    func mark(for feed: URL) -> Mark {
        let address = feed.absoluteString
        if subscribedFeeds.contains(address) || added.contains(address) { return .subscribed }
        return pending.contains(address) ? .adding : .subscribe
    }

    func started(_ feed: URL) {
        pending.insert(feed.absoluteString)
        changed()
    }

    func ended(_ address: String, succeeded: Bool) {
        pending.remove(address)
        if succeeded { added.insert(address) }
        Log.debug("discover: \(address) \(succeeded ? "subscribed" : "not subscribed")")
        changed()
    }

    private func changed() {
        rows.forEach { $0.refreshMark() }
    }
}

/// One search result: artwork, title, author and details, and Subscribe.
/// Titles and authors come from a web service and show as plain text.
@MainActor
final class DirectoryResultRow: ListRowController {
    private static let artworkSize: Int32 = 56

    private let box = Box(.horizontal, spacing: 12)
    private let artwork = Image(iconName: "application-rss+xml-symbolic", pixelSize: DirectoryResultRow.artworkSize)
    private let title = Label()
    private let details = Label()
    private let subscribeButton = Button(label: tr("_Subscribe"))
    private let artworkCache: ArtworkCache
    private let marks: SubscriptionMarks
    private var result: DirectoryResult?

    var root: Widget { box }

    init(artworkCache: ArtworkCache, marks: SubscriptionMarks,
         subscribe: @escaping @MainActor (DirectoryResult) -> Void) {
        self.artworkCache = artworkCache
        self.marks = marks
        box.setMargins(top: 8, bottom: 8, start: 12, end: 12)
        artwork.addCSSClass("card")
        artwork.align(horizontal: .start, vertical: .center)
        box.append(artwork)
        let text = Box(.vertical, spacing: 4)
        text.expandHorizontally()
        text.align(horizontal: .fill, vertical: .center)
        title.alignStart()
        title.wrap(lines: 2)
        title.addCSSClass("heading")
        details.alignStart()
        details.wrap(lines: 2)
        details.addCSSClass("dim-label")
        details.addCSSClass("caption")
        text.append(title)
        text.append(details)
        box.append(text)
        subscribeButton.align(horizontal: .end, vertical: .center)
        subscribeButton.onClicked { [weak self] in
            guard let self, let result, marks.mark(for: result.feedURL) == .subscribe else { return }
            marks.started(result.feedURL)
            subscribe(result)
        }
        box.append(subscribeButton)
        marks.register(self)
    }

    func bind(_ result: DirectoryResult) {
        self.result = result
        title.text = result.title
        var parts: [String] = []
        if let author = result.author { parts.append(author) }
        if let genre = result.genre { parts.append(genre) }
        if let count = result.episodeCount, count > 0 {
            parts.append(String(format: trn("%d episode", "%d episodes", count), count))
        }
        details.text = parts.joined(separator: " · ")
        details.isVisible = !parts.isEmpty
        box.setAccessibleLabel(result.title)
        artwork.setIconName("application-rss+xml-symbolic")
        if let url = result.artworkURL {
            artworkCache.texture(for: url, size: Self.artworkSize) { [weak self] texture in
                guard self?.result?.artworkURL == url else { return }
                self?.artwork.setTexture(texture)
            }
        }
        refreshMark()
    }

    func unbind() { result = nil }

    func refreshMark() {
        guard let result else { return }
        switch marks.mark(for: result.feedURL) {
        case .subscribe:
            subscribeButton.setLabel(tr("_Subscribe"))
            subscribeButton.isSensitive = true
            subscribeButton.addCSSClass("suggested-action")
        case .adding:
            subscribeButton.setLabel(tr("Adding…"))
            subscribeButton.isSensitive = false
            subscribeButton.removeCSSClass("suggested-action")
        case .subscribed:
            subscribeButton.setLabel(tr("Subscribed"))
            subscribeButton.isSensitive = false
            subscribeButton.removeCSSClass("suggested-action")
        }
    }
}
