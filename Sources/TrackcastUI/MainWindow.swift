import Bindings
import TrackcastCore
import TrackcastLibrary

/// The main window: a header bar over the library, show and episode pages,
/// which a leaflet navigates between, the player bar below them, all under a toast
/// overlay.
@MainActor
final class MainWindow {
    let applicationWindow: ApplicationWindow
    private let toasts: ToastOverlay
    private let navigation = Leaflet(canUnfold: false)
    private let libraryView: LibraryView
    private let showPage: ShowPage
    private let episodePage: EpisodePage
    /// The page an episode page was opened from, which Back returns to.
    private var pageBeforeEpisode = "library"
    private let discoverView: DiscoverView
    private let searchView: LibrarySearchView
    private let playerBar: PlayerBar
    private let headerBar = HeaderBar()
    private let playerArea = Box(.vertical)
    /// The pages (library, show) or, while a video item is current, the video.
    private let pages = ViewStack()
    /// Made when the first video plays.
    private var videoView: VideoView?
    private let title = Label(AppIdentity.name)
    private let back = Button(iconName: "go-previous-symbolic", tooltip: tr("Back"))
    private let library: LibraryModel

    /// - Parameters:
    ///   - keepsRunning: asked when the window is closed; true hides it
    ///     instead, so playback goes on in the background.
    ///   - dropped: files, links or feed addresses dropped on the window.
    init(application: Application, library: LibraryModel, nowPlaying: NowPlaying, artworkCache: ArtworkCache,
         settings: AppSettings, directories: [any PodcastDirectory],
         keepsRunning: @escaping @MainActor () -> Bool, dropped: @escaping DropTarget.DropHandler) {
        self.library = library
        applicationWindow = ApplicationWindow(application: application)
        applicationWindow.title = AppIdentity.name
        let windowState = WindowState()
        windowState.restore(applicationWindow)
        // Weak: the handler is owned by the window itself.
        applicationWindow.onCloseRequest { [weak applicationWindow] in
            guard let applicationWindow else { return false }
            windowState.save(applicationWindow)
            guard keepsRunning() else { return false }
            applicationWindow.hide()
            return true
        }
        if AppIdentity.isDevelopment { applicationWindow.addCSSClass("devel") }
        applicationWindow.addController(DropTarget(dropped))
        // Window shortcuts rather than application accelerators: arrow keys
        // move through the grid, which gets them first. The show page takes
        // them before its list does (`ShowPage`): rows go up and down.
        let playbackKeys = ShortcutController(phase: .bubble)
        playbackKeys.add(trigger: "Right", action: "app.seek-forward")
        playbackKeys.add(trigger: "Left", action: "app.seek-backward")
        playbackKeys.add(trigger: "Escape", action: "app.show-library")
        playbackKeys.add(trigger: "f", action: "app.fullscreen")
        playbackKeys.add(trigger: "p", action: "app.pip")
        applicationWindow.addController(playbackKeys)
        // Space plays and pauses before the focused button or row sees it,
        // as in other players, but not while the focus is in text being
        // typed or in a popover (`focusWantsTyping`): the entry gets its
        // space, the popover's switch flips. Application accelerators could
        // not make that exception.
        let spaceKey = ShortcutController(phase: .capture)
        spaceKey.add(trigger: "space") { [weak applicationWindow] in
            guard let applicationWindow, !applicationWindow.focusWantsTyping else {
                Log.debug("space: left to the focused control")
                return false
            }
            Log.debug("space: play-pause")
            applicationWindow.activateAction("app.play-pause", parameter: nil)
            return true
        }
        applicationWindow.addController(spaceKey)

        back.isVisible = false
        headerBar.packStart(back)
        // No Add button: at 360 pixels, with a window manager's three window
        // buttons, the header has no room for it. Adding is in the main
        // menu, Discover, the empty library and Ctrl+N.
        headerBar.packStart(Button(iconName: "system-search-symbolic", tooltip: tr("Discover Podcasts"), action: "app.discover"))
        headerBar.packEnd(MenuButton(iconName: "open-menu-symbolic", tooltip: tr("Main Menu"), menu: Self.primaryMenu()))
        headerBar.packEnd(Button(iconName: "view-refresh-symbolic", tooltip: tr("Refresh Podcasts"), action: "app.refresh"))
        title.addCSSClass("title")
        title.ellipsize()
        headerBar.setTitleWidget(title)

        libraryView = LibraryView(library: library, artworkCache: artworkCache, openShow: { show in
            application.activateAction("open-show", parameter: Variant(show.rawValue))
        }, play: { episode in
            application.activateAction("play-episode", parameter: Variant(episode.id.rawValue))
        })
        showPage = ShowPage(library: library, artworkCache: artworkCache, settings: settings) { episode in
            application.activateAction("play-episode", parameter: Variant(episode.id.rawValue))
        }
        episodePage = EpisodePage(library: library, artworkCache: artworkCache, nowPlaying: nowPlaying) { episode, seconds in
            application.activateAction("seek-episode", parameter: Variant(tuple: [Variant(episode.rawValue), Variant(seconds)]))
        }
        navigation.append(libraryView.root, name: "library")
        navigation.append(showPage.root, name: "show")
        discoverView = DiscoverView(library: library, directories: directories, artworkCache: artworkCache) { result in
            application.activateAction("subscribe-from-directory", parameter: Variant(result.feedURL.absoluteString))
        }
        navigation.append(discoverView.root, name: "discover")
        searchView = LibrarySearchView(library: library)
        navigation.append(searchView.root, name: "search")
        navigation.append(episodePage.root, name: "episode")
        navigation.expandVertically()

        // The header and the player bar are drawn from recordings
        // (`RecordedBin`): each video frame redraws only the picture, and
        // with the cairo renderer their nodes were replayed every frame.
        let content = Box(.vertical)
        content.append(RecordedBin(child: headerBar))
        pages.add(navigation, name: "browse")
        pages.expandVertically()
        content.append(pages)
        playerBar = PlayerBar(nowPlaying: nowPlaying, artworkCache: artworkCache, settings: settings)
        // In a box of its own: the bar shows and hides itself with the
        // item, fullscreen hides the box. It has the window's background
        // of its own, since the window has none while it shows video.
        StyleSheet.add(".trackcast-player-area { background-color: @window_bg_color; }")
        playerArea.addCSSClass("trackcast-player-area")
        playerArea.append(playerBar.root)
        content.append(RecordedBin(child: playerArea))

        toasts = ToastOverlay(child: content)
        applicationWindow.setContent(toasts)
        navigation.onVisibleChildChanged { [weak self] in self?.navigated() }
        back.onClicked { [weak self] in self?.goBack() }
        // Fullscreen is for video: nothing but the picture.
        applicationWindow.onFullscreenChanged { [weak self] in
            guard let self else { return }
            let fullscreen = applicationWindow.isFullscreen
            headerBar.isVisible = !fullscreen
            playerArea.isVisible = !fullscreen
            Log.debug("fullscreen: \(fullscreen)")
        }
    }

    private static func primaryMenu() -> Menu {
        let podcasts = Menu()
        podcasts.append(tr("_Search Library"), action: "app.search-library")
        podcasts.append(tr("_Discover Podcasts"), action: "app.discover")
        podcasts.append(tr("_Add Podcast…"), action: "app.add-podcast")
        podcasts.append(tr("_Import Subscriptions…"), action: "app.import-opml")
        podcasts.append(tr("_Try the Sample Show"), action: "app.try-sample-show")
        podcasts.append(tr("_Refresh Podcasts"), action: "app.refresh")
        podcasts.append(tr("_Downloads"), action: "app.show-downloads")
        let application = Menu()
        application.append(tr("_Preferences"), action: "app.preferences")
        application.append(tr("_Keyboard Shortcuts"), action: "app.shortcuts")
        application.append(tr("_About Trackcast"), action: "app.about")
        application.append(tr("_Quit"), action: "app.quit")
        let menu = Menu()
        menu.appendSection(podcasts)
        menu.appendSection(application)
        return menu
    }

    func present() { applicationWindow.present() }

    func showToast(_ title: String, button: (label: String, action: String)? = nil) {
        Log.debug("toast: \(title)" + (button.map { " [\($0.label)]" } ?? ""))
        toasts.showToast(title, button: button)
    }

    func openShow(_ show: Show) {
        showPage.present(show)
        navigation.show(showPage.root)
        // Already on the show page (another show opened from a link), the
        // leaflet does not change page and would not retitle the header.
        navigated()
        showPage.focusEpisodes()
        Log.debug("showing \(show.id): \(show.title ?? "")")
    }

    /// Shows an episode's page over the page it was opened from; at a
    /// chapter or transcript cue a search found, with "Play from" there.
    func openEpisode(_ id: EpisodeID, at moment: SearchPlace? = nil) {
        hideVideo()
        if let current = navigation.visibleChildName, current != "episode" { pageBeforeEpisode = current }
        episodePage.present(id, at: moment) { [weak self] in self?.navigated() }
        navigation.show(episodePage.root)
        navigated()
    }

    /// What the episode page's rows do when clicked, for scripts and tests:
    /// play from the transcript's `index`th cue, search the transcript.
    func activateTranscriptCue(_ index: Int) { episodePage.activateCue(index) }
    func searchTranscript(_ text: String) { episodePage.searchTranscript(text) }
    func showEpisodeSection(_ name: String) { episodePage.showSection(name) }

    /// Back from an episode to the show, list or search it was opened from; from a show to the library.
    private func goBack() {
        guard navigation.visibleChildName == "episode", ["show", "search"].contains(pageBeforeEpisode) else {
            showLibrary()
            return
        }
        navigation.show(pageBeforeEpisode == "show" ? showPage.root : searchView.root)
    }

    /// The library's search, with the keyboard in its entry; with `text`, searched for.
    func showSearch(_ text: String? = nil) {
        hideVideo()
        navigation.show(searchView.root)
        navigated()
        if let text { searchView.search(for: text) }
        searchView.focusSearch()
        Log.debug("showing library search")
    }

    /// Discover, searching the directory for `text`.
    func searchDirectory(_ text: String) {
        showDiscover()
        discoverView.search(for: text)
    }

    func showLibrary() {
        // Escape leaves fullscreen first.
        if applicationWindow.isFullscreen {
            applicationWindow.unfullscreen()
            return
        }
        navigation.show(libraryView.root)
        libraryView.focusShows()
    }

    /// Discover, with the keyboard in its search entry.
    func showDiscover() {
        hideVideo()
        navigation.show(discoverView.root)
        navigated()
        discoverView.focusSearch()
        Log.debug("showing discover")
    }

    func setDirectories(_ directories: [any PodcastDirectory]) { discoverView.setDirectories(directories) }

    /// A subscription from Discover's results ended.
    func directorySubscriptionEnded(_ feedAddress: String, succeeded: Bool) {
        discoverView.subscriptionEnded(feedAddress, succeeded: succeeded)
    }

    func showDownloads() {
        hideVideo()
        navigation.show(libraryView.root)
        libraryView.showDownloads()
        Log.debug("showing downloads")
    }

    /// Shows the video in place of the pages.
    func showVideo(_ paintable: VideoPaintable, phase: PlaybackPhase, tracks: TrackSelection, inPictureInPicture: Bool) {
        let view = videoView ?? {
            let made = VideoView(paintable: paintable)
            pages.add(made.root, name: "video")
            videoView = made
            return made
        }()
        view.update(phase: phase, tracks: tracks)
        view.showInPictureInPicture(inPictureInPicture)
        if pages.visibleChildName != "video" {
            pages.visibleChildName = "video"
            applicationWindow.addCSSClass(VideoView.windowClass)
            Log.debug("video: view shown")
        }
    }

    /// Back to the pages when no video is current.
    func hideVideo() {
        guard pages.visibleChildName == "video" else { return }
        if applicationWindow.isFullscreen { applicationWindow.unfullscreen() }
        pages.visibleChildName = "browse"
        applicationWindow.removeCSSClass(VideoView.windowClass)
        Log.debug("video: view hidden")
    }

    func toggleFullscreen() {
        if applicationWindow.isFullscreen { applicationWindow.unfullscreen() } else { applicationWindow.fullscreen() }
    }

    /// The header follows the page, whether code or a swipe changed it.
    private func navigated() {
        switch navigation.visibleChildName {
        case "show":
            back.isVisible = true
            title.text = showPage.showID.flatMap { library.show($0)?.title } ?? AppIdentity.name
        case "episode":
            back.isVisible = true
            title.text = episodePage.headerTitle ?? ""
        case "discover":
            back.isVisible = true
            title.text = tr("Discover")
        case "search":
            back.isVisible = true
            title.text = tr("Search")
        default:
            back.isVisible = false
            title.text = AppIdentity.name
        }
    }

    /// Calls `handler` once the window's first frame has been painted.
    func afterFirstFrame(_ handler: @escaping @MainActor () -> Void) {
        applicationWindow.onSignal("map") { [weak applicationWindow] in applicationWindow?.afterFirstPaint(handler) }
    }
}
