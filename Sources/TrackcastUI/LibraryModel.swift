import Bindings
import Foundation
import Synchronization
import TrackcastCore
import TrackcastLibrary

/// The library as the views see it. Every database call goes to the
/// `LibraryStore` actor, off the main thread; this class keeps the latest
/// show list and tells its observers when it changes. Views render what it
/// publishes and never talk to SQLite themselves.
@MainActor
final class LibraryModel {
    typealias ShowsObserver = @MainActor ([Show]) -> Void

    let directory: URL
    /// Artwork, chapters and transcripts: what can be fetched again (`CacheLocation`).
    let cacheDirectory: URL
    private var store: LibraryStore?
    /// The opening under way: work asked for before the library is open
    /// (an action over D-Bus right at start-up) waits for it, not fails.
    private var opening: Task<Void, any Error>?
    private(set) var shows: [Show] = []
    private var showsObservers: [ShowsObserver] = []
    private var episodeObservers: [@MainActor (ShowID) -> Void] = []
    private var queueObservers: [@MainActor () -> Void] = []
    private var downloadObservers: [@MainActor () -> Void] = []
    /// Running downloads as far as they have come; a relay brings the
    /// downloader's reports here, a few a second at most.
    private(set) var downloadProgress: [EpisodeID: DownloadProgress] = [:]
    /// Why downloads failed in this session, in the user's language (the
    /// library keeps the English reason for logs).
    private(set) var downloadFailures: [EpisodeID: String] = [:]
    private var stopObservers: [@MainActor () -> Void] = []
    private var synchronizer: Synchronizer?
    /// Made at the first subscription, refresh or download: their
    /// HTTP client and its thread are not needed to browse.
    private var refresher: FeedRefresher?
    private var downloader: Downloader?
    private var httpClient: HTTPClient?

    /// Positions recorded while playing, written every few seconds. Until
    /// the library is open its saves fail and the positions wait.
    private(set) lazy var resumePositions = ResumePositionStore { [weak self] updates in
        guard let self else { throw LibraryUnavailable() }
        try await openedStore().savePositions(updates)
    }

    /// `cacheDirectory` holds what can be fetched again (artwork, chapters,
    /// transcripts); by default the library's own `cache` folder.
    init(directory: URL, cacheDirectory: URL? = nil) {
        self.directory = directory
        self.cacheDirectory = cacheDirectory ?? directory.appendingPathComponent("cache", isDirectory: true)
    }

    /// Opens (or creates) `library.sqlite3`; the store's initializer does its
    /// file work on the global executor. `prepare` runs first, off the main
    /// thread too (creating the folder).
    /// A library file that cannot be used is set aside and a fresh one
    /// started (`LibraryStore.openRecovering`); what was set aside is returned.
    @discardableResult
    func open(after prepare: @escaping @Sendable () throws -> Void) async throws -> SetAsideLibrary? {
        let directory = directory
        let task = Task { () async throws -> SetAsideLibrary? in
            try await Task.detached { try prepare() }.value
            let (opened, setAside) = try await LibraryStore.openRecovering(directory: directory)
            store = opened
            Log.debug("library opened at \(directory.path)")
            await reloadShows()
            return setAside
        }
        opening = Task { _ = try await task.value }
        return try await task.value
    }

    /// The store, once open; throws if it could not be opened.
    func openedStore() async throws -> LibraryStore {
        if let store { return store }
        // Why it failed has been said once, at start-up.
        guard (try? await opening?.value) != nil, let store else { throw LibraryUnavailable() }
        return store
    }

    /// Calls `observer` now with the current shows, then after every change.
    func observeShows(_ observer: @escaping ShowsObserver) {
        showsObservers.append(observer)
        observer(shows)
    }

    /// Called with a show whose episodes changed (played, position saved).
    func observeEpisodes(_ observer: @escaping @MainActor (ShowID) -> Void) {
        episodeObservers.append(observer)
    }

    /// Called when playback stopped moving (pause, seek, stop, the end), after the position was saved.
    func observeStops(_ observer: @escaping @MainActor () -> Void) {
        stopObservers.append(observer)
    }

    func playbackStopped() {
        for observer in stopObservers { observer() }
    }

    /// Called after every change of the queue.
    func observeQueue(_ observer: @escaping @MainActor () -> Void) {
        queueObservers.append(observer)
    }

    func queueChanged() {
        for observer in queueObservers { observer() }
    }

    func reloadShows() async {
        guard let store else { return }
        do {
            shows = try await store.shows()
        } catch {
            Log.warning("cannot read the shows: \(error)")
            return
        }
        Log.debug("library: \(shows.count) shows")
        for observer in showsObservers { observer(shows) }
    }

    /// Fetches and parses the feed at `url` and adds it to the library;
    /// returns the show, which may have been there already.
    @discardableResult
    func subscribe(feedURL url: URL) async throws -> ShowID {
        let refresher = try await feedRefresher()
        let result = try await refresher.subscribe(to: url)
        Log.debug("subscribed \(url.absoluteString): \(result.show.id), \(result.applied?.inserted ?? 0) new episodes")
        await reloadShows()
        // The show is on screen; what its episodes say becomes searchable meanwhile.
        if let applied = result.applied {
            Task {
                await refresher.indexTranscripts(of: applied)
                Log.debug("subscribed \(result.show.id): transcripts indexed")
            }
        }
        return result.show.id
    }

    /// Subscribes every feed of an OPML file, then fetches the new shows'
    /// episodes. Returns how many shows were added.
    func importSubscriptions(from file: URL) async throws -> Int {
        let store = try await openedStore()
        let data = try await Task.detached { try Data(contentsOf: file) }.value
        let result = try await store.importOPML(data)
        Log.debug("imported \(result.added.count) shows, skipped \(result.skipped)")
        await reloadShows()
        let added = shows.filter { result.added.contains($0.id) }
        let refresher = try await feedRefresher()
        Task {
            _ = await refresher.refresh(added)
            await reloadShows()
            for show in added {
                for observer in episodeObservers { observer(show.id) }
            }
        }
        return result.added.count
    }

    /// Fetches every show's feed; returns how each show went. Open show
    /// pages hear about their new episodes.
    func refreshAll() async throws -> [ShowRefreshReport] {
        let reports = try await feedRefresher().refreshAll()
        Log.debug("refreshed \(reports.count) shows, \(reports.filter(\.isFailure).count) failed")
        await reloadShows()
        for report in reports {
            for observer in episodeObservers { observer(report.showID) }
        }
        return reports
    }

    /// The one synchronizer of this library (one sync at a time).
    func librarySynchronizer() async throws -> Synchronizer {
        if let synchronizer { return synchronizer }
        let made = Synchronizer(store: try await openedStore(), client: client())
        synchronizer = made
        return made
    }

    /// What a sync changed, shown: shows added elsewhere fetched, removed
    /// ones' downloads deleted as an unsubscribe deletes them, open lists told.
    func syncApplied(_ report: SyncReport) async {
        let folder = try? DownloadFolder(await episodeDownloader().directory)
        let files = report.removedShows.flatMap(\.files)
        if let folder, !files.isEmpty { _ = await Task.detached { folder.removeFiles(files) }.value }
        await reloadShows()
        if !report.addedShows.isEmpty, let refresher = try? await feedRefresher() {
            _ = await refresher.refresh(shows.filter { report.addedShows.contains($0.id) })
            await reloadShows()
        }
        let store = try? await openedStore()
        for applied in report.positions {
            if let show = try? await store?.episodeSummary(applied.episode)?.showID { episodesChanged(show) }
        }
        for show in report.addedShows { episodesChanged(show) }
    }

    private func feedRefresher() async throws -> FeedRefresher {
        if let refresher { return refresher }
        let made = FeedRefresher(store: try await openedStore(), client: client(), transcripts: transcriptFetcher())
        refresher = made
        return made
    }

    private func episodeDownloader() async throws -> Downloader {
        if let downloader { return downloader }
        let made = Downloader(store: try await openedStore(), client: client(),
                              directory: Downloader.defaultDirectory(inLibrary: directory))
        downloader = made
        return made
    }

    /// The directories Discover searches: Apple's always, Podcast Index when
    /// `podcastIndex` has a key and secret. `TRACKCAST_ITUNES_SEARCH_URL` and
    /// `TRACKCAST_PODCAST_INDEX_URL` point them elsewhere (the tests' loopback servers).
    func podcastDirectories(podcastIndex: (key: String, secret: String)?) -> [any PodcastDirectory] {
        let environment = ProcessInfo.processInfo.environment
        let iTunesURL = environment["TRACKCAST_ITUNES_SEARCH_URL"].flatMap(URL.init(string:))
        var directories: [any PodcastDirectory] = [
            ITunesDirectory(client: client(), searchURL: iTunesURL ?? ITunesDirectory.defaultSearchURL),
        ]
        if let podcastIndex {
            let apiURL = environment["TRACKCAST_PODCAST_INDEX_URL"].flatMap(URL.init(string:))
            directories.append(PodcastIndexDirectory(client: client(), key: podcastIndex.key, secret: podcastIndex.secret,
                                                     apiURL: apiURL ?? PodcastIndexDirectory.defaultAPIURL))
        }
        return directories
    }

    func client() -> HTTPClient {
        if let httpClient { return httpClient }
        let made = HTTPClient(userAgent: "\(AppIdentity.name)/\(AppIdentity.version)")
        httpClient = made
        return made
    }

    /// Called when a download starts, moves on, ends or is deleted.
    func observeDownloads(_ observer: @escaping @MainActor () -> Void) {
        downloadObservers.append(observer)
    }

    private func downloadsChanged() {
        for observer in downloadObservers { observer() }
    }

    /// Downloads an episode's media; its row shows it downloading as soon as
    /// the first bytes arrive, and downloaded at the end. `failureText`
    /// words a failure for the list of downloads.
    func download(_ episode: EpisodeID, show: ShowID, failureText: @escaping (any Error) -> String) async throws {
        let downloader = try await episodeDownloader()
        downloadFailures[episode] = nil
        let started = StartSignal { [weak self] in self?.episodesChanged(show) }
        let relay = ProgressRelay { [weak self] progress in
            guard let self, downloadProgress[episode] != nil else { return }
            downloadProgress[episode] = progress
            downloadsChanged()
        }
        downloadProgress[episode] = DownloadProgress(episode: episode, bytes: 0, total: nil)
        downloadsChanged()
        defer {
            downloadProgress[episode] = nil
            downloadsChanged()
        }
        do {
            let file = try await downloader.download(episode) { progress in
                started.fire()
                relay.report(progress)
            }
            Log.debug("downloaded \(episode) to \(file.path)")
        } catch {
            if (error as? DownloadError)?.kind != .cancelled { downloadFailures[episode] = failureText(error) }
            episodesChanged(show)
            throw error
        }
        episodesChanged(show)
        await reloadShows()
    }

    /// When every show was last refreshed together; nil before the first,
    /// or if the library cannot say.
    func lastFullRefresh() async -> Date? {
        do {
            return try await openedStore().lastFullRefresh()
        } catch {
            Log.warning("cannot tell when the shows were last refreshed: \(error)")
            return nil
        }
    }

    /// The episodes waiting for their automatic download
    /// (`LibraryStore.waitingAutoDownloads`); none if the library cannot say.
    func waitingAutoDownloads() async -> [EpisodeID] {
        do {
            return try await openedStore().waitingAutoDownloads()
        } catch {
            Log.warning("cannot tell which episodes to download: \(error)")
            return []
        }
    }

    /// Takes `episode` off the automatic downloads' waiting list.
    func endAutoDownloadWait(_ episode: EpisodeID) async {
        do {
            try await openedStore().endAutoDownloadWait(episode)
        } catch {
            Log.warning("cannot take \(episode) off the automatic downloads: \(error)")
        }
    }

    /// Stops a running download; what it fetched is kept for a retry.
    func cancelDownload(_ episode: EpisodeID) async throws {
        try await episodeDownloader().cancel(episode)
        Log.debug("cancelled the download of \(episode)")
    }

    func deleteDownload(_ episode: EpisodeID, show: ShowID) async throws {
        try await episodeDownloader().delete(episode)
        downloadFailures[episode] = nil
        Log.debug("deleted the download of \(episode)")
        episodesChanged(show)
        downloadsChanged()
    }

    /// Every download the library knows of, running ones first.
    func downloadList(limit: Int) async throws -> [DownloadListing] {
        try await openedStore().downloadList(limit: limit)
    }

    private func episodesChanged(_ show: ShowID) {
        for observer in episodeObservers { observer(show) }
    }

    /// Removes the show with its episodes, then deletes its downloads: the
    /// library first, so a crash in between leaves stray files, never rows
    /// pointing at missing ones.
    func unsubscribe(_ show: ShowID) async throws {
        let store = try await openedStore()
        let files = try await store.downloadFiles(ofShow: show)
        let folder = DownloadFolder(try await episodeDownloader().directory)
        try await store.unsubscribe(show)
        let removed = await Task.detached { folder.removeFiles(files) }.value
        Log.debug("unsubscribed \(show), \(removed) downloads deleted")
        await reloadShows()
    }

    /// Downloads show artwork once, into the cache folder.
    func artworkFetcher() -> ArtworkFetcher {
        ArtworkFetcher(client: client(), cacheDirectory: cacheDirectory.appendingPathComponent("artwork", isDirectory: true))
    }

    /// Chapter pictures as files: linked ones in the artwork cache, carried ones in their own folder.
    func chapterArtwork() -> ChapterArtwork {
        ChapterArtwork(fetcher: artworkFetcher(), directory: cacheDirectory.appendingPathComponent("chapter-art", isDirectory: true))
    }

    /// Reads a streamed MP4's own chapters by Range requests.
    func remoteMP4Chapters() -> RemoteMP4Chapters {
        RemoteMP4Chapters(client: client())
    }

    /// Fetches Podcasting 2.0 chapters files, kept in the cache folder.
    func interstitialFetcher() -> HLSInterstitialFetcher {
        HLSInterstitialFetcher(client: client())
    }

    func chapterFetcher() -> ChapterFetcher {
        ChapterFetcher(client: client(), cacheDirectory: cacheDirectory.appendingPathComponent("chapters", isDirectory: true))
    }

    /// Fetches episodes' transcripts, kept in the cache folder, in the
    /// reader's language where an episode offers several.
    func transcriptFetcher() -> TranscriptFetcher {
        TranscriptFetcher(client: client(), cacheDirectory: cacheDirectory.appendingPathComponent("transcripts", isDirectory: true),
                          preferredLanguages: Locale.preferredLanguages)
    }

    /// Every place in the library that holds the words of `text`, grouped
    /// by show and episode; empty if the library cannot be read, or if the
    /// calling task is cancelled (the query then stops where it is).
    func search(_ text: String) async -> SearchResults {
        do {
            return SearchResults(try await openedStore().search(SearchQuery(text)))
        } catch is CancellationError {
            Log.debug("library search: superseded")
            return SearchResults([])
        } catch {
            Log.warning("search failed: \(error)")
            return SearchResults([])
        }
    }

    /// Puts a transcript just fetched or read from the cache into the search index.
    func indexTranscript(_ transcript: Transcript, of episode: EpisodeID) async {
        do {
            try await openedStore().indexTranscript(transcript, of: episode)
        } catch {
            Log.warning("transcript of \(episode) not indexed: \(error)")
        }
    }

    /// Puts chapters learned from a chapters file or the media into the search index.
    func indexChapters(_ chapters: [Chapter], of episode: EpisodeID) async {
        do {
            if try await openedStore().indexChapters(chapters, of: episode) {
                Log.debug("search index: \(chapters.count) chapters of episode \(episode.rawValue)")
            }
        } catch {
            Log.warning("chapters of \(episode) not indexed: \(error)")
        }
    }

    /// How much of a library from before the search index is still to be
    /// indexed; nil once all is (or was from the start).
    private(set) var searchIndexBacklog: SearchIndexBacklog?
    private var searchIndexObservers: [@MainActor () -> Void] = []

    /// Called as the search index of an older library is built, and when it is done.
    func observeSearchIndex(_ observer: @escaping @MainActor () -> Void) {
        searchIndexObservers.append(observer)
    }

    /// Indexes what a library from before the search index has not yet had
    /// indexed, a batch at a time, saying how far it got.
    func buildSearchIndex() async {
        let fetcher = transcriptFetcher()
        do {
            let store = try await openedStore()
            let backlog = try await store.searchIndexBacklog()
            guard !backlog.isDone else { return }
            searchIndexProgressed(backlog)
            try await SearchIndexBuilder(store: store) { fetcher.cachedTranscript(for: $0, from: $1) }.run { backlog in
                Task { @MainActor [weak self] in self?.searchIndexProgressed(backlog) }
            }
        } catch {
            Log.warning("search index not built: \(error)")
        }
    }

    private func searchIndexProgressed(_ backlog: SearchIndexBacklog) {
        Log.debug("search index: \(backlog.remaining) of \(backlog.total) episodes left")
        searchIndexBacklog = backlog.isDone ? nil : backlog
        for observer in searchIndexObservers { observer() }
    }

    /// An episode with its feed chapters and the address of its chapters file.
    func episodeDetail(_ id: EpisodeID) async -> EpisodeDetail? {
        try? await openedStore().episode(id)
    }

    func showSettings(_ show: ShowID) async -> ShowSettings? {
        try? await openedStore().settings(for: show)
    }

    func setShowSettings(_ settings: ShowSettings, for show: ShowID) async {
        do {
            try await openedStore().setSettings(settings, for: show)
            Log.debug("show \(show.rawValue) settings: speed \(settings.playbackSpeed.map { "\($0)" } ?? "default"), intro \(settings.skipIntro) s, outro \(settings.skipOutro) s, auto-download \(settings.autoDownload ? "on" : "off")")
        } catch {
            Log.warning("cannot save the settings of \(show): \(error)")
        }
    }

    /// The downloaded file to play instead of streaming, if there is one.
    func localFile(for episode: EpisodeID) async -> URL? {
        await store?.localFile(for: episode)
    }

    func show(_ id: ShowID) -> Show? { shows.first { $0.id == id } }

    /// One page of a show's episodes.
    func episodes(of show: ShowID, filter: EpisodeFilter, sort: EpisodeSort, limit: Int,
                  offset: Int) async throws -> [EpisodeSummary] {
        return try await openedStore().episodes(of: show, filter: filter, sort: sort, limit: limit, offset: offset)
    }

    /// New episodes across shows, newest first.
    func newEpisodes(limit: Int) async throws -> [EpisodeSummary] {
        try await openedStore().newEpisodes(limit: limit)
    }

    /// Started and not finished, most recently played first.
    func inProgressEpisodes(limit: Int) async throws -> [EpisodeSummary] {
        try await openedStore().inProgressEpisodes(limit: limit)
    }

    func episode(_ id: EpisodeID) async -> EpisodeSummary? {
        try? await openedStore().episodeSummary(id)
    }

    /// Where `key` was left: a position recorded but not yet flushed, or
    /// the library's.
    func resumePosition(for key: ResumeKey) async -> ResumePosition? {
        if let pending = await resumePositions.unsavedPosition(for: key) { return pending }
        return try? await openedStore().position(for: key)
    }

    /// Writes the recorded positions; `show`'s open lists hear about it.
    func flushPositions(show: ShowID?) async {
        guard await resumePositions.flush() else {
            Log.warning("cannot save resume positions; they are kept for the next try")
            return
        }
        if let show { episodesChanged(show) }
    }

    /// Played to the end: its position is forgotten (and an episode marked played).
    func finished(_ key: ResumeKey) async {
        await resumePositions.forget(key)
        switch key {
        case .episode(let episode):
            await setPlayed(episode, true)
        case .uri:
            do {
                try await openedStore().removePosition(for: key)
            } catch {
                Log.warning("cannot forget the position of \(key): \(error)")
            }
        }
    }

    /// Marks an episode played (which forgets where it stopped) or unplayed.
    func setPlayed(_ episode: EpisodeID, _ played: Bool) async {
        do {
            let store = try await openedStore()
            try await store.setPlayed([episode], played: played)
            guard let show = try await store.episodeSummary(episode)?.showID else { return }
            Log.debug("\(episode) marked \(played ? "played" : "unplayed")")
            for observer in episodeObservers { observer(show) }
        } catch {
            Log.warning("cannot mark \(episode) played: \(error)")
            return
        }
        await reloadShows()
    }
}

/// The library could not be opened; the start-up toast has said why.
struct LibraryUnavailable: Error {}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// Brings download progress from the downloader's thread to the main actor:
/// only the newest report is kept, and it is delivered at most five times a
/// second, so a fast download does not flood the main thread.
private final class ProgressRelay: Sendable {
    private static let interval = Duration.milliseconds(200)
    private struct State {
        var latest: DownloadProgress?
        var scheduled = false
        var lastDelivery: ContinuousClock.Instant?
    }
    private let state = Mutex(State())
    private let deliver: @MainActor @Sendable (DownloadProgress) -> Void

    init(_ deliver: @escaping @MainActor @Sendable (DownloadProgress) -> Void) { self.deliver = deliver }

    func report(_ progress: DownloadProgress) {
        let wait = state.withLock { state -> Duration? in
            state.latest = progress
            guard !state.scheduled else { return nil }
            state.scheduled = true
            guard let last = state.lastDelivery else { return .zero }
            return max(.zero, last + Self.interval - .now)
        }
        guard let wait else { return }
        Task { @MainActor [self] in
            if wait > .zero { try? await Task.sleep(for: wait) }
            let latest = state.withLock { state -> DownloadProgress? in
                state.scheduled = false
                state.lastDelivery = .now
                defer { state.latest = nil }
                return state.latest
            }
            if let latest { deliver(latest) }
        }
    }
}

/// Calls its action on the main actor the first time it fires, from any
/// thread: download progress arrives on the downloader's.
private final class StartSignal: Sendable {
    private let fired = Mutex(false)
    private let action: @MainActor @Sendable () -> Void

    init(_ action: @escaping @MainActor @Sendable () -> Void) { self.action = action }

    func fire() {
        guard fired.withLock({ fired in defer { fired = true }; return !fired }) else { return }
        Task { @MainActor [action] in action() }
    }
}
