import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary
import TrackcastMPRIS

/// The GUI process: the application object, its actions and its one window.
/// Everything here lives on the main actor, which the GLib main loop drives.
///
/// Every user command is an action, so buttons, shortcuts and scripts
/// (`gdbus call … org.gtk.Actions.Activate`) all go the same way.
@MainActor
public final class TrackcastApplication {
    private let application: Application
    private let libraryDirectory: URL
    private let cacheDirectory: URL
    private let library: LibraryModel
    private let settings = AppSettings()
    /// Lazy: it reads `settings`.
    private lazy var podcastIndex = PodcastIndexCredentials(settings: settings)
    /// Open while the user is in Preferences, where keyring messages are shown then.
    private var preferences: PreferencesView?
    private let nowPlaying: NowPlaying
    private let artworkCache: ArtworkCache
    private lazy var video = VideoPresentation(application: application, nowPlaying: nowPlaying, settings: settings,
                                                artworkCache: artworkCache) {
        [unowned self] in window
    }
    private var window: MainWindow?
    private lazy var inhibitor = PlaybackInhibitor(application: application) { [unowned self] in window?.applicationWindow }
    /// Lazy: it calls back here for the window, so it needs `self`.
    private lazy var commands: LibraryCommands = {
        let commands = LibraryCommands(library: library, host: self)
        commands.afterRefresh = { [unowned self] reports in
            autoDownloads?.refreshed(reports)
            refreshSchedule?.refreshed()
            Task { await sync.sync(automatic: true) }
        }
        return commands
    }()
    private let sync: SyncController
    private let upNext: UpNext
    /// Episodes played this session before the current one, oldest first.
    private var playedBefore: [EpisodeID] = []
    /// The window was closed while playing and only hidden; playback ending
    /// closes it for real.
    private var isPlayingInBackground = false
    private var isQuitting = false
    private let backgroundPermission = BackgroundPermission()
    /// GNOME Shell's search; exported before the application registers.
    private lazy var searchProvider = ShellSearchProvider(library: library, openEpisode: { [unowned self] id, place, time in
        openSearchResult(id, place: place, time: time)
    }, showResults: { [unowned self] text in presentWindow().showSearch(text) })
    /// What the first activation does instead of presenting the window (`run(activating:)`).
    private var actionAtActivation: String?
    /// Disabled while a refresh runs, which greys out its button.
    private var refreshAction: SimpleAction?
    /// SIGTERM and SIGINT (logout, Ctrl+C in a terminal) quit as Ctrl+Q does, saving first.
    private var signalWatches: [UnixSignalWatch] = []
    /// The data saver's caps for streams, from startup on.
    private var dataSaver: DataSaver?
    /// New episodes of shows set to download them, from the library's
    /// opening on; only a refresh brings any (`refresh`): subscribing,
    /// importing and shows a sync adds bring back catalogues, which are
    /// never downloaded unasked.
    private var autoDownloads: AutoDownloads?
    /// Refreshes by itself every so many hours, from the library's opening on.
    private var refreshSchedule: RefreshSchedule?

    /// Set by the benchmark: quit as soon as the first frame is on screen.
    private let quitAfterFirstFrame = ProcessInfo.processInfo.environment["TRACKCAST_QUIT_AFTER_FIRST_FRAME"] == "1"
    /// Set by the benchmark: print how long each frame took (`frame-time: MS`).
    private let printsFrameTimes = ProcessInfo.processInfo.environment["TRACKCAST_FRAME_TIMES"] == "1"

    public init(libraryDirectory: URL, cacheDirectory: URL) {
        self.libraryDirectory = libraryDirectory
        self.cacheDirectory = cacheDirectory
        library = LibraryModel(directory: libraryDirectory, cacheDirectory: cacheDirectory)
        nowPlaying = NowPlaying(library: library, settings: settings)
        artworkCache = ArtworkCache(library: library)
        upNext = UpNext(library: library)
        sync = SyncController(library: library, keyring: Keyring())
        RendererChoice.prepareDisplay()
        application = Application(id: AppIdentity.id, handlesOpen: true)
        application.onStartup { [unowned self] in
            installActions()
            prepareLibrary()
            dataSaver = DataSaver(settings: settings, nowPlaying: nowPlaying)
            Task { await podcastIndex.load() }
            signalWatches = [SIGTERM, SIGINT].map { signal in
                UnixSignalWatch(signal: signal) { [unowned self] in
                    Log.debug("signal \(signal): quitting")
                    quitApplication()
                }
            }
        }
        application.onActivate { [unowned self] in
            if let action = actionAtActivation {
                actionAtActivation = nil
                application.activateAction(action)
            } else {
                presentWindow()
            }
        }
        application.onOpen { [unowned self] uris in open(uris) }
        nowPlaying.onMessage { [unowned self] message, offersRetry in
            window?.showToast(message, button: offersRetry ? (tr("Retry"), "app.retry") : nil)
        }
        nowPlaying.mprisHost = self
        // A key and secret set in Preferences, or read from the keyring, take effect without a restart.
        podcastIndex.onChange = { [unowned self] in
            window?.setDirectories(library.podcastDirectories(podcastIndex: podcastIndex.current))
        }
        podcastIndex.onMessage = { [unowned self] message in
            if let preferences { preferences.showToast(message) } else { window?.showToast(message) }
        }
        sync.onMessage = { [unowned self] message in window?.showToast(message) }
        sync.onPasswordRefused = { [unowned self] in
            window?.showToast(tr("The sync server refused the password"), button: (tr("Enter Password"), "app.preferences-sync"))
        }
        sync.onPosition = { [unowned self] position in remotePositionApplied(position) }
        nowPlaying.observe { [unowned self] in playbackChanged() }
        nowPlaying.onEnd { [unowned self] in playNextInQueue() }
        upNext.observe { [unowned self] in nowPlaying.hostChanged() }
    }

    private func showPreferences(sync showingSync: Bool) {
        let view = PreferencesView(transientFor: window?.applicationWindow, settings: settings,
                                   podcastIndex: podcastIndex, sync: sync, showingSync: showingSync) { [unowned self] in
            preferences = nil
        }
        preferences = view
        view.present()
    }

    /// Another device's position for the episode that is loaded: applied
    /// only while it is paused or stopped (a listener is never yanked
    /// mid-sentence; the next save here overrides it while playing).
    private func remotePositionApplied(_ applied: AppliedRemotePosition) {
        guard nowPlaying.item?.episode == applied.episode else { return }
        switch nowPlaying.phase {
        case .playing, .loading, .buffering:
            Log.debug("sync: a position from \(applied.device ?? "another device") waits: the episode is playing")
        default:
            guard !applied.finished, let target = Duration(clampingSeconds: applied.position) else { return }
            nowPlaying.seek(to: target)
            window?.showToast(String(format: tr("Continued from %@, from %@"), TimeText.clock(target),
                                     applied.device ?? tr("another device")))
        }
    }

    /// Runs the GUI until the last window closes; returns the exit status.
    /// When another instance is running, hands `items` to it and returns.
    public func run(items: [String]) -> Int32 {
        MainQueueBridge.install()
        saveOnEveryExit()
        searchProvider.export()
        return application.run(arguments: [AppIdentity.executable] + items)
    }

    /// Runs the GUI with `action` (one of the application's own) activated in
    /// place of the plain activation, as the desktop file's actions ask when
    /// a launcher runs their Exec line. When another instance is running,
    /// the action goes to it and this process exits.
    public func run(activating action: String) -> Int32 {
        MainQueueBridge.install()
        saveOnEveryExit()
        searchProvider.export()
        do {
            guard try application.registerIsPrimary() else {
                application.activateAction(action)
                application.flush()
                // Ended here, not by returning: GApplication warns when an
                // instance that registered but never ran is finalised.
                exit(0)
            }
        } catch {
            Log.warning("cannot register on the session bus: \(error)")
            return 1
        }
        actionAtActivation = action
        return application.run(arguments: [AppIdentity.executable])
    }

    /// Runs as D-Bus activation asks: registered on the bus, no window until
    /// an activation, an action or files arrive.
    public func runAsService() -> Int32 {
        MainQueueBridge.install()
        saveOnEveryExit()
        searchProvider.export()
        return application.run(arguments: [AppIdentity.executable, "--gapplication-service"])
    }

    /// Where playback is gets saved however the process ends. The session
    /// ending asks at query-end (GTK hears of it once registered with a
    /// session manager, which is only tried when one is there: without,
    /// GTK would warn at every start); and whatever ends the main loop
    /// (Ctrl+Q, MPRIS Quit, the session's EndSession, the last window
    /// closing) passes through shutdown, which waits for the save.
    private func saveOnEveryExit() {
        application.registersSession = SessionBus.nameHasOwner("org.gnome.SessionManager")
        application.onQueryEnd { [unowned self] in
            Log.debug("session ending: saving the position")
            holdUntilDone(nowPlaying.saveCurrentPosition())
        }
        application.onShutdown { [unowned self] in
            Self.finish(nowPlaying.saveCurrentPosition(), "position saved", else: "the position was not saved within 3 s")
            // A key typed just before quitting is still on its way to the keyring.
            Self.finish(podcastIndex.pendingWrite, "Podcast Index key written",
                        else: "the Podcast Index key was not written to the keyring within 3 s")
        }
    }

    private func installActions() {
        add("add-podcast", accelerators: ["<Control>n"]) { [unowned self] in
            commands.addPodcast { [unowned self] address in
                application.activateAction("subscribe", parameter: Variant(address))
            }
        }
        addWithParameter("subscribe", type: "s") { [unowned self] in commands.subscribe(address: $0.string ?? "") }
        add("import-opml") { [unowned self] in commands.chooseSubscriptionList() }
        // The library's search (Ctrl+F); the directory's, Discover, from its results or the menu.
        add("search-library", accelerators: ["<Control>f"]) { [unowned self] in presentWindow().showSearch() }
        addWithParameter("search", type: "s") { [unowned self] in presentWindow().showSearch($0.string ?? "") }
        addWithParameter("open-search-result", type: "(xsd)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 3, let id = fields[0].int64, let place = fields[1].string,
                  let time = fields[2].double else { return }
            openSearchResult(EpisodeID(rawValue: id), place: place, time: time >= 0 ? time : nil)
        }
        // Discover, and what its Subscribe buttons do: subscribe and stay on the results.
        add("discover") { [unowned self] in presentWindow().showDiscover() }
        addWithParameter("discover-search", type: "s") { [unowned self] in presentWindow().searchDirectory($0.string ?? "") }
        addWithParameter("subscribe-from-directory", type: "s") { [unowned self] in
            commands.subscribeFromDirectory(address: $0.string ?? "")
        }
        add("show-downloads") { [unowned self] in presentWindow().showDownloads() }
        add("try-sample-show") { [unowned self] in commands.trySampleShow() }
        refreshAction = add("refresh", accelerators: ["<Control>r"]) { [unowned self] in
            commands.refresh(disabling: refreshAction)
        }
        add("show-library", accelerators: ["<Alt>Left"]) { [unowned self] in window?.showLibrary() }
        addWithParameter("open-show", type: "x") { [unowned self] in
            if let id = $0.int64 { commands.openShow(ShowID(rawValue: id)) }
        }
        addWithParameter("unsubscribe", type: "x") { [unowned self] in
            if let id = $0.int64 { commands.confirmUnsubscribe(ShowID(rawValue: id)) }
        }
        addWithParameter("play-episode", type: "x") { [unowned self] in
            if let id = $0.int64 { playEpisode(EpisodeID(rawValue: id)) }
        }
        addWithParameter("open-episode", type: "x") { [unowned self] in
            if let id = $0.int64 { presentWindow().openEpisode(EpisodeID(rawValue: id)) }
        }
        addWithParameter("seek-episode", type: "(xd)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 2, let id = fields[0].int64, let seconds = fields[1].double,
                  let start = Self.mediaTime(seconds) else { return }
            playEpisode(EpisodeID(rawValue: id), from: start)
        }
        // The episode page's transcript, as clicking a cue and typing a search do.
        addWithParameter("transcript-cue", type: "i") { [unowned self] in
            if let index = $0.int32 { window?.activateTranscriptCue(Int(index)) }
        }
        addWithParameter("search-transcript", type: "s") { [unowned self] in
            window?.searchTranscript($0.string ?? "")
        }
        add("open-chapter-link") { [unowned self] in
            // Web addresses only, as the chapter list's link buttons.
            guard let chapter = nowPlaying.chapters.current, let address = EpisodeChapterRow.address(of: chapter) else { return }
            Log.debug("chapter link: \(address)")
            presentWindow().applicationWindow.showURI(address)
        }
        addWithParameter("episode-section", type: "s") { [unowned self] in
            window?.showEpisodeSection($0.string ?? "")
        }
        addWithParameter("download-episode", type: "x") { [unowned self] in
            if let id = $0.int64 { commands.download(EpisodeID(rawValue: id)) }
        }
        addWithParameter("cancel-download", type: "x") { [unowned self] in
            if let id = $0.int64 { commands.cancelDownload(EpisodeID(rawValue: id)) }
        }
        addWithParameter("delete-download", type: "x") { [unowned self] in
            if let id = $0.int64 { commands.deleteDownload(EpisodeID(rawValue: id)) }
        }
        addWithParameter("set-played", type: "(xb)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 2, let id = fields[0].int64, let played = fields[1].bool else { return }
            commands.setPlayed(EpisodeID(rawValue: id), played)
        }
        installQueueActions()
        installListeningActions()
        for action in settings.actions() { application.addAction(action) }
        video.installActions()
        // Space is the main window's (`MainWindow`), not an accelerator: it must give way to text entries.
        add("play-pause") { [unowned self] in nowPlaying.togglePlayPause() }
        add("stop") { [unowned self] in nowPlaying.stop() }
        add("retry") { [unowned self] in nowPlaying.retry() }
        add("seek-forward") { [unowned self] in nowPlaying.skipForward() }
        add("seek-backward") { [unowned self] in nowPlaying.skipBackward() }
        add("go-to-live") { [unowned self] in nowPlaying.goToLive() }
        addWithParameter("scrub-to", type: "d") { [unowned self] in
            if let seconds = $0.double, let target = Self.mediaTime(seconds) { nowPlaying.scrub(to: target) }
        }
        addWithParameter("seek-to", type: "d") { [unowned self] in
            if let seconds = $0.double, let target = Self.mediaTime(seconds) { nowPlaying.seek(to: target) }
        }
        add("preferences", accelerators: ["<Control>comma"]) { [unowned self] in showPreferences(sync: false) }
        // Where a refused sync password is entered again.
        add("preferences-sync") { [unowned self] in showPreferences(sync: true) }
        add("sync") { [unowned self] in Task { await sync.sync(automatic: false) } }
        add("shortcuts", accelerators: ["<Control>question"]) { [unowned self] in
            ShortcutsView.make(transientFor: window?.applicationWindow).present()
        }
        add("about") { [unowned self] in showAbout() }
        add("quit", accelerators: ["<Control>q"]) { [unowned self] in quitApplication() }
        application.setAccelerators(["<Control>w"], forAction: "window.close")
    }

    /// Up Next: `queue-next(x)` ("Play Next"), `queue-last(x)` ("Play Last"),
    /// `queue-remove(x)`, `queue-move-up(x)`, `queue-move-down(x)`, `queue-move((xi))` (what dropping a row does),
    /// `queue-clear`, and `play-next` to go on to the first queued episode.
    private func installQueueActions() {
        let edits: [(String, @MainActor (EpisodeID) -> Void)] = [
            ("queue-next", upNext.playNext), ("queue-last", upNext.playLast),
            ("queue-remove", upNext.remove), ("queue-move-up", upNext.moveUp), ("queue-move-down", upNext.moveDown),
        ]
        for (name, edit) in edits {
            addWithParameter(name, type: "x") { if let id = $0.int64 { edit(EpisodeID(rawValue: id)) } }
        }
        addWithParameter("queue-move", type: "(xi)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 2, let id = fields[0].int64, let index = fields[1].int32 else { return }
            upNext.move(EpisodeID(rawValue: id), to: Int(index))
        }
        add("queue-clear") { [unowned self] in upNext.clear() }
        add("play-next") { [unowned self] in playNextInQueue() }
    }

    /// Chapters: `next-chapter`, `previous-chapter`, `seek-chapter(i)` (the
    /// index among the listed chapters). The sleep timer: `sleep-timer(s)`
    /// with minutes ("30"), "end-of-episode", "end-of-chapter" or "off",
    /// and `sleep-timer-extend` (five more minutes).
    private func installListeningActions() {
        add("next-chapter") { [unowned self] in nowPlaying.nextChapter() }
        add("previous-chapter") { [unowned self] in nowPlaying.previousChapter() }
        addWithParameter("seek-chapter", type: "i") { [unowned self] in
            if let index = $0.int32 { nowPlaying.seekToChapter(Int(index)) }
        }
        addWithParameter("sleep-timer", type: "s") { [unowned self] parameter in
            let timer = nowPlaying.sleepTimer
            switch parameter.string ?? "" {
            case "end-of-episode": timer.start(.endOfEpisode)
            case "end-of-chapter": timer.start(.endOfChapter)
            case "off": timer.cancel()
            case let text:
                if let minutes = Int(text), minutes > 0 { timer.start(.minutes(minutes)) }
            }
        }
        add("sleep-timer-extend") { [unowned self] in nowPlaying.sleepTimer.extend(byMinutes: 5) }
        // Per show: `show-speed((xd))` (0 goes back to the preference),
        // `show-skip((xdd))`, the seconds of intro and outro to skip, and
        // `show-auto-download((xb))`, whether new episodes download by themselves.
        addWithParameter("show-speed", type: "(xd)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 2, let id = fields[0].int64, let speed = fields[1].double, speed.isFinite else { return }
            let remembered: Double? = speed > 0 ? min(max(speed, 0.5), 3) : nil
            nowPlaying.setShowSettings({ $0.playbackSpeed = remembered }, for: ShowID(rawValue: id))
        }
        addWithParameter("show-skip", type: "(xdd)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 3, let id = fields[0].int64, let intro = fields[1].double.flatMap(MediaTime.seconds),
                  let outro = fields[2].double.flatMap(MediaTime.seconds) else { return }
            let (start, end) = (intro, outro)
            nowPlaying.setShowSettings({ $0.skipIntro = start; $0.skipOutro = end }, for: ShowID(rawValue: id))
        }
        addWithParameter("show-auto-download", type: "(xb)") { [unowned self] parameter in
            let fields = parameter.children
            guard fields.count == 2, let id = fields[0].int64, let on = fields[1].bool else { return }
            nowPlaying.setShowSettings({ $0.autoDownload = on }, for: ShowID(rawValue: id))
        }
    }

    /// Seconds from a D-Bus caller as a time in an item, through the one
    /// conversion that cannot trap: nil unless finite, else within 0…10⁷ s.
    private static func mediaTime(_ seconds: Double) -> Duration? {
        MediaTime.seconds(seconds).flatMap(Duration.init(clampingSeconds:))
    }

    @discardableResult
    private func add(_ name: String, accelerators: [String] = [],
                     _ activate: @escaping @MainActor () -> Void) -> SimpleAction {
        let action = SimpleAction(name: name, activate)
        application.addAction(action, accelerators: accelerators)
        return action
    }

    private func addWithParameter(_ name: String, type: String, _ activate: @escaping @MainActor (Variant) -> Void) {
        application.addAction(SimpleAction(name: name, parameterType: type, activate))
    }

    private func prepareLibrary() {
        let directory = libraryDirectory, cache = cacheDirectory
        Task {
            do {
                let setAside = try await library.open(after: {
                    try LibraryLocation.prepare(directory)
                    for move in CacheLocation.moveEarlierCaches(library: directory, cache: cache) {
                        switch move {
                        case let .moved(from, to): Log.debug("cache moved from \(from) to \(to)")
                        case let .kept(path, reason): Log.warning("cache left at \(path): \(reason)")
                        }
                    }
                })
                await upNext.reload()
                Log.debug("library ready at \(directory.path)")
                autoDownloads = AutoDownloads(library: library, settings: settings)
                refreshSchedule = RefreshSchedule(library: library, settings: settings) { [unowned self] in
                    // A refresh running already counts.
                    guard refreshAction?.isEnabled != false else { return }
                    commands.refresh(disabling: refreshAction, announcesFailures: false)
                }
                Task { await library.buildSearchIndex() }
                if let setAside {
                    Log.warning("the library file could not be used (\(setAside.reason)); kept as \(setAside.movedTo.path)")
                    let message = switch setAside.reason {
                    case .damaged: tr("The library was damaged. It was kept as %@ and a new library was started.")
                    case .newerVersion: tr("The library is from a newer Trackcast. It was kept as %@ and a new library was started.")
                    }
                    window?.showToast(String(format: message, setAside.movedTo.lastPathComponent))
                }
            } catch {
                Log.warning("cannot use the library folder \(directory.path): \(error)")
                window?.showToast(String(format: tr("Cannot use the library folder %@"), directory.path))
            }
        }
    }

    @discardableResult
    func presentWindow() -> MainWindow {
        let window = self.window ?? makeWindow()
        isPlayingInBackground = false
        window.present()
        return window
    }

    private func makeWindow() -> MainWindow {
        Log.debug("main window: building")
        let directories = library.podcastDirectories(podcastIndex: podcastIndex.current)
        let window = MainWindow(application: application, library: library, nowPlaying: nowPlaying,
                                artworkCache: artworkCache, settings: settings, directories: directories,
                                keepsRunning: { [unowned self] in keepsRunningWhenClosed() },
                                dropped: { [unowned self] dropped in drop(dropped) })
        window.afterFirstFrame { [unowned self] in
            Log.debug("first frame painted")
            if quitAfterFirstFrame {
                FileHandle.standardOutput.write(Data("first-frame\n".utf8))
                application.quit()
            }
            if printsFrameTimes {
                self.window?.applicationWindow.onEveryFrame { duration in
                    FileHandle.standardOutput.write(Data(String(format: "frame-time: %.3f\n", duration / .milliseconds(1)).utf8))
                }
            }
        }
        self.window = window
        video.follow(window)
        return window
    }

    /// Opens an episode where a search found it: at a chapter or transcript
    /// cue, with "Play from" that moment.
    private func openSearchResult(_ id: EpisodeID, place: String, time: TimeInterval?) {
        let moment: SearchPlace? = switch (place, time) {
        case ("chapter", let time?): .chapter(start: time)
        case ("transcript", let time?): .transcript(start: time)
        default: nil
        }
        presentWindow().openEpisode(id, at: moment)
    }

    /// Plays an episode from where it was left, or from `start` (a chapter
    /// or cue chosen on its page: the episode playing just seeks there).
    private func playEpisode(_ id: EpisodeID, from start: Duration? = nil) {
        if let start, nowPlaying.item?.episode == id {
            nowPlaying.seek(to: start)
            return
        }
        upNext.started(id)
        rememberCurrentEpisode(before: id)
        nowPlaying.play(from: start) { [library, nowPlaying] in
            guard let episode = await library.episode(id) else {
                Log.debug("no \(id) to play")
                return nil
            }
            return nowPlaying.item(for: episode, localFile: await library.localFile(for: id))
        }
    }

    /// Notes the episode playing now, before `next` replaces it, for Previous.
    private func rememberCurrentEpisode(before next: EpisodeID) {
        guard let current = nowPlaying.item?.episode, current != next else { return }
        playedBefore.append(current)
    }

    /// Previous: the episode played before this one plays again, and this
    /// one goes to the front of the queue, so Next comes back to it.
    private func playPreviousEpisode() {
        guard let previous = playedBefore.popLast() else { return }
        if let current = nowPlaying.item?.episode { upNext.playNext(current) }
        Log.debug("previous episode: \(previous)")
        nowPlaying.play { [library, nowPlaying] in
            guard let episode = await library.episode(previous) else { return nil }
            return nowPlaying.item(for: episode, localFile: await library.localFile(for: previous))
        }
    }

    // MARK: Playing

    /// The first queued episode plays, leaving the queue. Taken at once, so
    /// Next pressed twice takes two episodes, and the second plays.
    private func playNextInQueue() {
        guard let next = upNext.takeFirst() else { return }
        Log.debug("next in the queue: \(next.id)")
        rememberCurrentEpisode(before: next.id)
        nowPlaying.play { [library, nowPlaying] in
            nowPlaying.item(for: next, localFile: await library.localFile(for: next.id))
        }
    }

    /// Handles files and links from the command line, the desktop or a
    /// drop: subscription lists are imported, feeds subscribed, media played.
    private func open(_ uris: [String]) {
        Log.debug("open: \(uris.joined(separator: " "))")
        presentWindow()
        var media: [URL] = []
        for uri in uris {
            guard let url = URL(string: uri) else { continue }
            switch OpenedItem(url) {
            case .subscriptionList: commands.importSubscriptions(from: url)
            case .feed: commands.subscribe(address: uri)
            case .media: media.append(url)
            case .feedOrMedia: commands.subscribe(url, orElse: { [unowned self] _ in play(url) })
            case .refused:
                Log.debug("open: refused \(uri)")
                let shown = uri.count > 80 ? uri.prefix(79) + "…" : uri
                window?.showToast(String(format: tr("“%@” was not opened: Trackcast opens files and web addresses only"), shown))
            }
        }
        // One player: the first media item plays.
        if let first = media.first { play(first) }
    }

    private func play(_ url: URL) {
        nowPlaying.play(.init(uri: url.absoluteString, title: url.lastPathComponent.removingPercentEncoding ?? url.absoluteString,
                              showTitle: nil, kind: OpenedItem.mediaKind(of: url), episode: nil, show: nil))
    }

    private func drop(_ dropped: DropTarget.Dropped) -> Bool {
        switch dropped {
        case .uris(let uris):
            guard !uris.isEmpty else { return false }
            open(uris)
        case .text(let text):
            let link = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
            guard let url = URL(string: link.trimmingCharacters(in: .whitespaces)), url.scheme != nil else {
                return false
            }
            open([url.absoluteString])
        }
        return true
    }

    private func keepsRunningWhenClosed() -> Bool {
        guard !isQuitting, settings.backgroundPlayback, nowPlaying.isActive else { return false }
        isPlayingInBackground = true
        Log.debug("window hidden; playing in the background")
        askToRunInBackground()
        return true
    }

    /// In a sandbox, the desktop is asked whether playing on windowless is
    /// allowed; without a yes the window comes back and says why.
    private func askToRunInBackground() {
        Task {
            guard let answer = await backgroundPermission.request(),
                  let refusal = BackgroundPermission.refusal(answer) else { return }
            Log.warning("background playback: \(answer)")
            guard isPlayingInBackground else { return }
            presentWindow().showToast(refusal)
        }
    }

    private func playbackChanged() {
        inhibitor.update(phase: nowPlaying.phase, isVideo: nowPlaying.hasVideo)
        // Nothing left to play in the background: close the hidden window,
        // which ends the process as closing it would have. A pause does not
        // count: a media key or a second launch may resume it.
        guard isPlayingInBackground else { return }
        switch nowPlaying.phase {
        case .ended where !upNext.isEmpty:
            break
        case .ended, .failed, .idle:
            isPlayingInBackground = false
            window?.applicationWindow.close()
        case .loading, .ready, .playing, .paused, .buffering:
            break
        }
    }

    /// Closes the window the way the user would, so it saves its state, then
    /// ends the process.
    private func quitApplication() {
        guard !isQuitting else { return }
        isQuitting = true
        inhibitor.release()
        // The position is saved at shutdown, which every way out passes through.
        window?.applicationWindow.close()
        application.quit()
    }

    /// Runs the main context until `work` is done (3 s at most), at
    /// shutdown, when nothing else would: the process ends after this.
    private static func finish(_ work: Task<Void, Never>?, _ done: String, else notDone: String) {
        guard let work else { return }
        let finished = Flag()
        Task {
            await work.value
            finished.isSet = true
        }
        let inTime = MainContext.iterate(until: { finished.isSet }, timeout: .seconds(3))
        Log.debug("shutdown: " + (inTime ? done : notDone))
    }

    /// Keeps the process alive until `work` is done: with its last window
    /// gone, the application would end before a position is written.
    private func holdUntilDone(_ work: Task<Void, Never>?) {
        guard let work else { return }
        application.hold()
        Task {
            await work.value
            application.release()
        }
    }

    private func showAbout() {
        AboutTrackcast.present(transientFor: window?.applicationWindow, libraryDirectory: libraryDirectory)
    }
}

/// What MPRIS asks of the app around the player. Next plays the first
/// queued episode; Previous the one played before (or, a few seconds in,
/// restarts the current one: MPRISService decides).
extension TrackcastApplication: MPRISHost {
    public func play() { nowPlaying.play() }
    public func pause() { nowPlaying.pause() }
    public func playPause() { nowPlaying.togglePlayPause() }
    public func stop() { nowPlaying.stop() }
    public func seek(to position: Duration) { nowPlaying.seek(to: position) }
    public func setRate(_ rate: Double) { nowPlaying.setRate(rate) }
    public func setVolume(_ volume: Double) { nowPlaying.setVolume(volume) }
    public var canRaise: Bool { true }
    public func raise() { presentWindow() }
    public func quit() { quitApplication() }
    public var canGoNext: Bool { !upNext.isEmpty }
    public var hasPrevious: Bool { !playedBefore.isEmpty }
    public func next() { playNextInQueue() }
    public func previous() { playPreviousEpisode() }
    public func open(uri: String) { open([uri]) }
    public func libraryMetadata(forURI uri: String) -> MPRISLibraryMetadata? { nowPlaying.metadata(forURI: uri) }
}

extension TrackcastApplication: CommandWindowHost {
    var currentWindow: MainWindow? { window }
}

/// A yes that a task sets and the main thread reads, both on the main actor.
@MainActor
private final class Flag {
    var isSet = false
}
