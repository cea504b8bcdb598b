import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// The GUI process: the application object, its actions and its one window.
/// Everything here lives on the main actor, which the GLib main loop drives.
///
/// Every user command is an action, so buttons, shortcuts and scripts
/// (`gdbus call … org.gtk.Actions.Activate`) all go the same way.
@MainActor
public final class TrackcastApplication {
    private let application: Application
    private let libraryDirectory: URL
    private let library: LibraryModel
    private let settings = AppSettings()
    private let nowPlaying: NowPlaying
    private let artworkCache: ArtworkCache
    private var window: MainWindow?
    /// The window was closed while playing and only hidden; playback ending
    /// closes it for real.
    private var isPlayingInBackground = false
    private var isQuitting = false

    /// Set by the benchmark: quit as soon as the first frame is on screen.
    private let quitAfterFirstFrame = ProcessInfo.processInfo.environment["TRACKCAST_QUIT_AFTER_FIRST_FRAME"] == "1"

    public init(libraryDirectory: URL) {
        self.libraryDirectory = libraryDirectory
        library = LibraryModel(directory: libraryDirectory)
        nowPlaying = NowPlaying(library: library, settings: settings)
        artworkCache = ArtworkCache(libraryDirectory: libraryDirectory)
        application = Application(id: AppIdentity.id, handlesOpen: true)
        application.onStartup { [unowned self] in
            installActions()
            prepareLibrary()
        }
        application.onActivate { [unowned self] in presentWindow() }
        application.onOpen { [unowned self] uris in open(uris) }
        nowPlaying.onError { [unowned self] message in window?.showToast(message) }
        nowPlaying.observe { [unowned self] in playbackChanged() }
    }

    /// Runs the GUI until the last window closes; returns the exit status.
    /// When another instance is running, hands `items` to it and returns.
    public func run(items: [String]) -> Int32 {
        MainQueueBridge.install()
        return application.run(arguments: [AppIdentity.executable] + items)
    }

    /// Runs as D-Bus activation asks: registered on the bus, no window until
    /// an activation, an action or files arrive.
    public func runAsService() -> Int32 {
        MainQueueBridge.install()
        return application.run(arguments: [AppIdentity.executable, "--gapplication-service"])
    }

    private func installActions() {
        add("add-podcast", accelerators: ["<Control>n"]) { [unowned self] in addPodcast() }
        add("import-opml") { [unowned self] in
            window?.showToast(tr("Importing subscriptions is not available yet"))
        }
        add("try-sample-show") { [unowned self] in trySampleShow() }
        add("show-library", accelerators: ["<Alt>Left"]) { [unowned self] in window?.showLibrary() }
        application.addAction(SimpleAction(name: "open-show", parameterType: "x") { [unowned self] id in
            if let id = id.int64 { openShow(ShowID(rawValue: id)) }
        })
        application.addAction(SimpleAction(name: "play-episode", parameterType: "x") { [unowned self] id in
            if let id = id.int64 { playEpisode(EpisodeID(rawValue: id)) }
        })
        add("play-pause", accelerators: ["space"]) { [unowned self] in nowPlaying.togglePlayPause() }
        add("seek-forward", accelerators: ["Right"]) { [unowned self] in nowPlaying.skipForward() }
        add("seek-backward", accelerators: ["Left"]) { [unowned self] in nowPlaying.skipBackward() }
        add("preferences", accelerators: ["<Control>comma"]) { [unowned self] in
            PreferencesView(transientFor: window?.applicationWindow, settings: settings).present()
        }
        add("shortcuts", accelerators: ["<Control>question"]) { [unowned self] in
            ShortcutsView.make(transientFor: window?.applicationWindow).present()
        }
        add("about") { [unowned self] in showAbout() }
        add("quit", accelerators: ["<Control>q"]) { [unowned self] in quit() }
        application.setAccelerators(["<Control>w"], forAction: "window.close")
    }

    private func add(_ name: String, accelerators: [String] = [], _ activate: @escaping @MainActor () -> Void) {
        application.addAction(SimpleAction(name: name, activate), accelerators: accelerators)
    }

    private func prepareLibrary() {
        let directory = libraryDirectory
        Task {
            do {
                try await Task.detached { try LibraryLocation.prepare(directory) }.value
                try await library.open()
                Log.debug("library ready at \(directory.path)")
            } catch {
                Log.warning("cannot use the library folder \(directory.path): \(error)")
                window?.showToast(String(format: tr("Cannot use the library folder %@"), directory.path))
            }
        }
    }

    private func presentWindow() {
        let window = self.window ?? makeWindow()
        isPlayingInBackground = false
        window.present()
    }

    private func makeWindow() -> MainWindow {
        let window = MainWindow(application: application, library: library, nowPlaying: nowPlaying,
                                artworkCache: artworkCache,
                                keepsRunning: { [unowned self] in keepsRunningWhenClosed() },
                                dropped: { [unowned self] dropped in drop(dropped) })
        window.afterFirstFrame { [unowned self] in
            Log.debug("first frame painted")
            if quitAfterFirstFrame {
                FileHandle.standardOutput.write(Data("first-frame\n".utf8))
                application.quit()
            }
        }
        self.window = window
        return window
    }

    // MARK: Library

    private func addPodcast() {
        presentWindow()
        AddPodcastDialog(transientFor: window?.applicationWindow) { [unowned self] address in
            guard let url = FeedFetcher.feedURL(from: address) else {
                window?.showToast(tr("That is not a feed address"))
                return
            }
            subscribe(url, thenOpen: true)
        }.present()
    }

    private func trySampleShow() {
        guard let url = SampleShow.feedURL() else {
            window?.showToast(tr("The sample show is not installed"))
            return
        }
        subscribe(url, thenOpen: true)
    }

    private func subscribe(_ url: URL, thenOpen: Bool) {
        Task {
            do {
                let result = try await library.subscribe(feedURL: url)
                if thenOpen { openShow(result.showID) }
            } catch is LibraryUnavailable {
                return
            } catch {
                Log.warning("cannot subscribe to \(url.absoluteString): \(error)")
                window?.showToast(String(format: tr("Cannot add the podcast at %@"), url.absoluteString))
            }
        }
    }

    private func openShow(_ id: ShowID) {
        presentWindow()
        guard let show = library.show(id) else {
            Log.debug("no \(id) to show")
            return
        }
        window?.openShow(show)
    }

    private func playEpisode(_ id: EpisodeID) {
        Task {
            guard let episode = await library.episode(id) else {
                Log.debug("no \(id) to play")
                return
            }
            nowPlaying.play(episode)
        }
    }

    // MARK: Playing

    /// Plays files and streams, and subscribes feed links, handed over by
    /// the command line, the desktop or a drop.
    private func open(_ uris: [String]) {
        Log.debug("open: \(uris.joined(separator: " "))")
        presentWindow()
        for uri in uris where Self.isFeedLink(uri) {
            if let url = FeedFetcher.feedURL(from: uri) { subscribe(url, thenOpen: true) }
        }
        if let media = uris.first(where: { !Self.isFeedLink($0) }), let url = URL(string: media) {
            nowPlaying.play(.init(uri: media, title: url.lastPathComponent.removingPercentEncoding ?? media,
                                  showTitle: nil, kind: .unknown, episode: nil, show: nil))
        }
    }

    private static func isFeedLink(_ uri: String) -> Bool {
        let lower = uri.lowercased()
        return ["feed:", "podcast:", "itms-podcast:", "itmss:"].contains { lower.hasPrefix($0) }
            || [".rss", ".xml", ".atom", "/feed", "/rss"].contains { lower.hasSuffix($0) }
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
        return true
    }

    private func playbackChanged() {
        // Nothing left to play in the background: close the hidden window,
        // which ends the process as closing it would have.
        if isPlayingInBackground, !nowPlaying.isActive {
            isPlayingInBackground = false
            window?.applicationWindow.close()
        }
    }

    /// Closes the window the way the user would, so it saves its state, then
    /// ends the process.
    private func quit() {
        isQuitting = true
        nowPlaying.saveCurrentPosition()
        window?.applicationWindow.close()
        application.quit()
    }

    private func showAbout() {
        let about = AboutWindow(transientFor: window?.applicationWindow, applicationName: AppIdentity.name,
                                applicationIcon: AppIdentity.id, version: AppIdentity.version,
                                developerName: tr("The Trackcast developers"), website: AppIdentity.website,
                                license: .gpl3OrLater)
        about.setDebugInfo("Library: \(libraryDirectory.path)")
        about.present()
    }
}
