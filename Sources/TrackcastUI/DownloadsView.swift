import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// The downloads: running ones with their progress and Cancel, failed ones
/// with the reason and Retry, complete ones with Delete. Read from the
/// library whenever a download starts, ends or is deleted; progress comes
/// from the library model without a query. Activating one plays it.
@MainActor
final class DownloadsView {
    private static let listLimit = 500

    let root = ViewStack()
    private let downloads = ListStore<DownloadListing>()
    private let library: LibraryModel
    private let rows = RowRegistry<DownloadRow>()
    private var loadTask: Task<Void, Never>?
    /// Which episodes were running at the last read: a change there needs a new read.
    private var running: Set<EpisodeID> = []

    init(library: LibraryModel, play: @escaping @MainActor (EpisodeSummary) -> Void) {
        self.library = library
        let list = ListView(model: downloads, factory: ListItemFactory { [rows, library] in
            let row = DownloadRow(library: library)
            rows.register(row)
            return row
        })
        list.showSeparators(true)
        list.keepRowsOnlyWhileMapped()
        list.setAccessibleLabel(tr("Downloads"))
        list.onActivate { [downloads] position in
            if let listing = downloads.payload(at: position) { play(listing.episode) }
        }
        root.add(ScrolledWindow(child: list), name: "downloads")
        root.add(StatusPage(iconName: "folder-download-symbolic", title: tr("No Downloads"),
                            description: tr("Episodes you download to listen offline show here")), name: "empty")
        root.visibleChildName = "empty"
        library.observeShows { [weak self] _ in self?.reload() }
        library.observeEpisodes { [weak self] _ in self?.reload() }
        library.observeDownloads { [weak self] in self?.downloadsChanged() }
    }

    /// Progress alone only moves the bars; a download starting or ending is read again.
    private func downloadsChanged() {
        let now = Set(library.downloadProgress.keys)
        if now != running {
            reload()
        } else {
            rows.forEach { $0.refreshProgress() }
        }
    }

    /// A newer reload replaces one still running, so results arrive in order.
    private func reload() {
        loadTask?.cancel()
        running = Set(library.downloadProgress.keys)
        loadTask = Task { [weak self, library] in
            let items: [DownloadListing]
            do {
                items = try await library.downloadList(limit: Self.listLimit)
            } catch {
                if !(error is LibraryUnavailable) { Log.warning("cannot read the downloads: \(error)") }
                return
            }
            guard let self, !Task.isCancelled else { return }
            downloads.update(to: items)
            root.visibleChildName = items.isEmpty ? "empty" : "downloads"
            let states = items.map { "\($0.id.rawValue) \($0.download.state.rawValue)" }.joined(separator: ", ")
            Log.debug("downloads: \(items.count) [\(states)]")
        }
    }
}

/// The rows a list made, weakly, to tell the ones alive about a change
/// their item does not carry (progress, a subscription).
@MainActor
final class RowRegistry<Row: AnyObject> {
    private struct Entry { weak var row: Row? }
    private var entries: [Entry] = []

    func register(_ row: Row) {
        entries.removeAll { $0.row == nil }
        entries.append(Entry(row: row))
    }

    func forEach(_ body: (Row) -> Void) {
        for entry in entries { if let row = entry.row { body(row) } }
    }
}

/// One download: title, show and where it stands, a progress bar while it
/// runs, and the one button that fits its state.
@MainActor
final class DownloadRow: ListRowController {
    private let box = Box(.horizontal, spacing: 12)
    private let title = Label()
    private let details = Label()
    private let progress = ProgressBar()
    private let button = Button(iconName: "process-stop-symbolic", tooltip: tr("Cancel Download"))
    private let library: LibraryModel
    private var listing: DownloadListing?

    var root: Widget { box }

    init(library: LibraryModel) {
        self.library = library
        box.setMargins(top: 10, bottom: 10, start: 12, end: 12)
        let text = Box(.vertical, spacing: 4)
        text.expandHorizontally()
        title.alignStart()
        title.wrap(lines: 2)
        title.addCSSClass("heading")
        details.alignStart()
        details.wrap(lines: 3)
        details.addCSSClass("dim-label")
        details.addCSSClass("caption")
        details.useTabularNumbers()
        text.append(title)
        text.append(details)
        text.append(progress)
        box.append(text)
        button.addCSSClass("flat")
        button.addCSSClass("circular")
        button.align(horizontal: .end, vertical: .center)
        box.append(button)
    }

    func bind(_ listing: DownloadListing) {
        self.listing = listing
        let episode = listing.episode
        title.text = episode.title ?? tr("Untitled episode")
        box.setAccessibleLabel(title.text)
        let id = Variant(episode.id.rawValue)
        if library.downloadProgress[episode.id] != nil {
            button.setAction("app.cancel-download", target: id)
            button.setIcon("process-stop-symbolic", tooltip: tr("Cancel Download"))
        } else if listing.download.state == .complete {
            button.setAction("app.delete-download", target: id)
            button.setIcon("user-trash-symbolic", tooltip: tr("Delete Download"))
        } else {
            // Failed, or left running by a session that ended: downloading again resumes it.
            button.setAction("app.download-episode", target: id)
            button.setIcon("view-refresh-symbolic", tooltip: tr("Retry Download"))
        }
        refreshProgress()
    }

    func unbind() { listing = nil }

    /// The details line and bar, from the live progress while it runs.
    func refreshProgress() {
        guard let listing else { return }
        let episode = listing.episode
        var parts: [String] = []
        if let show = episode.showTitle { parts.append(show) }
        if let live = library.downloadProgress[episode.id] {
            progress.isVisible = true
            if let fraction = live.fraction {
                progress.fraction = min(max(fraction, 0), 1)
                parts.append(String(format: tr("%@ of %@"), Self.size(live.bytes), Self.size(live.total ?? 0)))
            } else {
                progress.pulse()
                parts.append(live.bytes > 0 ? Self.size(live.bytes) : tr("Starting…"))
            }
        } else {
            progress.isVisible = false
            switch listing.download.state {
            case .complete:
                parts.append(String(format: tr("Downloaded · %@"), Self.size(listing.download.bytes)))
            case .failed:
                // The reason in the user's language when it failed in this session.
                parts.append(library.downloadFailures[episode.id] ?? tr("The download failed."))
                if listing.download.bytes > 0 {
                    parts.append(String(format: tr("%@ kept for a retry"), Self.size(listing.download.bytes)))
                }
            case .downloading, .queued:
                // Left from a session that ended while it ran: a retry resumes it.
                parts.append(tr("Stopped"))
            }
        }
        details.text = parts.joined(separator: " · ")
    }

    private static func size(_ bytes: Int64) -> String { ByteSize.text(bytes) }
}
