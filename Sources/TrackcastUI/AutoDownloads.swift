import Bindings
import TrackcastCore
import TrackcastLibrary

/// Downloads what a refresh brought to shows set to "Download New Episodes"
/// (`LibraryStore.dueForAutoDownload`), one at a time, through
/// `LibraryModel.download` like a download the user starts. While GIO's
/// network monitor says the network is metered and the preference does not
/// allow it, they wait here, in memory, and start when the network becomes
/// unmetered or the preference changes; a quit forgets them (the next
/// refresh does not bring them back: they are no longer new).
@MainActor
final class AutoDownloads {
    static let meteredKey = "auto-download-on-metered"

    private let library: LibraryModel
    private let settings: AppSettings
    private let monitor = NetworkMonitor()
    /// Due and not yet started, in the order the refreshes reported them.
    private var waiting: [EpisodeID] = []
    private var isDownloading = false

    init(library: LibraryModel, settings: AppSettings) {
        self.library = library
        self.settings = settings
        monitor.onMeteredChange { [weak self] in self?.startWhileAllowed() }
        settings.onChange(Self.meteredKey) { [weak self] in self?.startWhileAllowed() }
        // A waiting episode the user downloads by hand is theirs: were it
        // deleted afterwards, it must not come back from here.
        library.observeDownloads { [weak self, library] in
            self?.waiting.removeAll { library.downloadProgress[$0] != nil }
        }
    }

    private var isAllowed: Bool { !monitor.isMetered || settings.bool(forKey: Self.meteredKey) }

    /// Takes what a refresh brought; whatever is due starts, or waits.
    func refreshed(_ reports: [ShowRefreshReport]) async {
        let arrivals = reports.flatMap(\.arrivals)
        guard !arrivals.isEmpty else { return }
        let due = await library.dueForAutoDownload(arrivals)
        waiting += due.filter { !waiting.contains($0) }
        startWhileAllowed()
    }

    private func startWhileAllowed() {
        guard !isDownloading, !waiting.isEmpty else { return }
        guard isAllowed else {
            Log.debug("auto-download: \(waiting.count) waiting (metered)")
            return
        }
        isDownloading = true
        Task {
            while isAllowed, !waiting.isEmpty {
                await download(waiting.removeFirst())
            }
            isDownloading = false
            startWhileAllowed()
        }
    }

    private func download(_ id: EpisodeID) async {
        // Asked again: the user may have downloaded it while it waited.
        guard await library.dueForAutoDownload([id]) == [id], let episode = await library.episode(id) else { return }
        Log.debug("auto-download: started \(id)")
        do {
            try await library.download(id, show: episode.showID) { error in
                FailureText.download(error) ?? tr("The download failed.")
            }
        } catch {
            // The list of downloads shows the failure; it is not tried again.
            Log.warning("auto-download of \(id) failed: \(error)")
        }
    }
}
