import Bindings
import TrackcastCore
import TrackcastLibrary

/// Downloads what refreshes brought to shows set to "Download New Episodes"
/// (the library's waiting list, `LibraryStore.waitingAutoDownloads`), one at
/// a time, through `LibraryModel.download` like a download the user starts.
/// While GIO's network monitor says the network is metered and the
/// preference does not allow it, they wait in the library, and start when
/// the network becomes unmetered, the preference changes, or the app starts
/// again on an unmetered network.
@MainActor
final class AutoDownloads {
    static let meteredKey = "auto-download-on-metered"

    private let library: LibraryModel
    private let settings: AppSettings
    private let monitor = NetworkMonitor()
    private var isDownloading = false

    init(library: LibraryModel, settings: AppSettings) {
        self.library = library
        self.settings = settings
        monitor.onMeteredChange { [weak self] in self?.startWhileAllowed() }
        settings.onChange(Self.meteredKey) { [weak self] in self?.startWhileAllowed() }
        // What waited when the app last quit.
        startWhileAllowed()
    }

    private var isAllowed: Bool { !monitor.isMetered || settings.bool(forKey: Self.meteredKey) }

    /// Looks at the waiting list again if a refresh brought a show anything.
    func refreshed(_ reports: [ShowRefreshReport]) {
        if reports.contains(where: { !$0.arrivals.isEmpty }) { startWhileAllowed() }
    }

    /// Downloads the waiting episodes while allowed. The list is read again
    /// before each, and `isAllowed` after each read, so a change of network
    /// or preference while one runs is seen at the next.
    private func startWhileAllowed() {
        guard !isDownloading else { return }
        isDownloading = true
        Task {
            // Each once a run, should the library fail to take one off the list.
            var tried: Set<EpisodeID> = []
            while let next = await waitingWhileAllowed(except: tried) {
                tried.insert(next)
                await download(next)
            }
            isDownloading = false
        }
    }

    /// The next episode to download, or nil when none waits or none may start.
    private func waitingWhileAllowed(except tried: Set<EpisodeID>) async -> EpisodeID? {
        let waiting = await library.waitingAutoDownloads().filter { !tried.contains($0) }
        guard let next = waiting.first else { return nil }
        guard isAllowed else {
            Log.debug("auto-download: \(waiting.count) waiting (metered)")
            return nil
        }
        return next
    }

    /// Downloads `id` and takes it off the list, whatever happened: a
    /// download that failed shows in the list of downloads, and is not
    /// tried again.
    private func download(_ id: EpisodeID) async {
        if let episode = await library.episode(id) {
            Log.debug("auto-download: started \(id)")
            do {
                try await library.download(id, show: episode.showID) { error in
                    FailureText.download(error) ?? tr("The download failed.")
                }
            } catch {
                Log.warning("auto-download of \(id) failed: \(error)")
            }
        }
        await library.endAutoDownloadWait(id)
    }
}
