import Bindings
import Foundation
import TrackcastCore

/// Where video goes: the main window's video view while a video item is
/// current, picture-in-picture on request (`app.pip`; for audio it shows
/// the artwork, following the chapters' pictures), and fullscreen
/// (`app.fullscreen`), and picture-in-picture when the main window is
/// minimised while video plays, if the preference says so (closed again
/// when the window comes back). (`PlaybackInhibitor` keeps the screen on
/// while video plays.)
@MainActor
final class VideoPresentation {
    private let application: Application
    private let nowPlaying: NowPlaying
    private let window: @MainActor () -> MainWindow?
    private var pictureInPicture: PictureInPictureWindow?
    private let trackActions: TrackActions
    private let frameCapture: FrameCaptureActions
    private let settings: AppSettings
    private let artworkCache: ArtworkCache
    /// The artwork audio's picture-in-picture shows or is loading: none
    /// (`.some(nil)`) or not yet chosen (`nil`).
    private var pictureInPictureArtwork: URL??
    /// The main window's minimised state, watched once the window exists.
    private var mainWindowState: WindowSurfaceState?
    /// Picture-in-picture was opened by minimising, so restoring closes it.
    private var openedOnMinimize = false

    init(application: Application, nowPlaying: NowPlaying, settings: AppSettings, artworkCache: ArtworkCache,
         window: @escaping @MainActor () -> MainWindow?) {
        self.settings = settings
        self.artworkCache = artworkCache
        self.application = application
        self.nowPlaying = nowPlaying
        self.window = window
        trackActions = TrackActions(application: application, nowPlaying: nowPlaying, window: window)
        frameCapture = FrameCaptureActions(application: application, nowPlaying: nowPlaying, window: window)
    }

    /// Call from the application's startup, before the first window.
    func installActions() {
        RendererChoice.apply()
        application.addAction(SimpleAction(name: "pip") { [unowned self] in togglePictureInPicture() })
        application.addAction(SimpleAction(name: "fullscreen") { [unowned self] in window()?.toggleFullscreen() })
        trackActions.install()
        frameCapture.install()
        nowPlaying.observe { [unowned self] in playbackChanged() }
    }

    private var showsVideo: Bool {
        guard nowPlaying.hasVideo else { return false }
        switch nowPlaying.phase {
        case .idle, .ended: return false
        case .loading, .ready, .playing, .paused, .buffering, .failed: return true
        }
    }

    /// An item is current that picture-in-picture can show: video, or audio's artwork.
    private var showsSomething: Bool {
        switch nowPlaying.phase {
        case .idle, .ended, .failed: showsVideo
        case .loading, .ready, .playing, .paused, .buffering: true
        }
    }

    private func playbackChanged() {
        let phase = nowPlaying.phase
        if showsVideo, let video = nowPlaying.video {
            window()?.showVideo(video, phase: phase, tracks: nowPlaying.tracks,
                                inPictureInPicture: pictureInPicture?.shows(video: true) == true)
            report(video)
        } else {
            // The counts at the end, too: the last report while playing
            // can be half a second old.
            if phase == .ended, let video = nowPlaying.video { report(video) }
            window()?.hideVideo()
        }
        // Shown as it opened (video or artwork) while the item allows; an
        // item that turns out to be the other kind closes it.
        guard let pictureInPicture else { return }
        if showsSomething, pictureInPicture.shows(video: showsVideo) {
            pictureInPicture.update(playing: VideoView.isPlaying(phase))
            if !showsVideo { followArtwork(in: pictureInPicture) }
        } else {
            pictureInPicture.close()
        }
    }

    private func followArtwork(in pip: PictureInPictureWindow) {
        let url = nowPlaying.artwork
        guard pictureInPictureArtwork != .some(url) else { return }
        pictureInPictureArtwork = .some(url)
        Log.debug("pip: artwork \(url?.lastPathComponent ?? "none")")
        pip.showArtwork(nil)
        guard let url else { return }
        artworkCache.texture(for: url, size: PictureInPictureWindow.artworkSize) { [weak self, weak pip] texture in
            guard self?.pictureInPictureArtwork == .some(url) else { return }
            pip?.showArtwork(texture)
            Log.debug("pip: artwork shown, \(texture.width)×\(texture.height)")
        }
    }

    /// What tests and the benchmark read (`G_MESSAGES_DEBUG=Trackcast`).
    private func report(_ video: VideoPaintable) {
        guard [.playing, .paused, .ended].contains(nowPlaying.phase) else { return }
        let frame = video.frame.map { String(format: "%dx%d par %.3f", $0.width, $0.height, $0.pixelAspect) } ?? "none"
        Log.debug("video: painted \(video.framesPainted) dropped \(video.framesDropped) received \(video.framesReceived) "
                  + "frame \(frame) on \(video.convertsOnGPU ? "gpu" : "cpu") "
                  + "decoders \(nowPlaying.activeDecoders.joined(separator: ","))")
    }

    /// Call once the main window exists: minimising it can open picture-in-picture.
    func follow(_ mainWindow: MainWindow) {
        mainWindowState = WindowSurfaceState(of: mainWindow.applicationWindow) { [weak self] minimized in
            self?.mainWindowMinimized(minimized)
        }
    }

    private func mainWindowMinimized(_ minimized: Bool) {
        Log.debug("main window: \(minimized ? "minimized" : "restored")")
        if minimized {
            guard pictureInPicture == nil, settings.pictureInPictureOnMinimize, showsVideo, nowPlaying.isActive else { return }
            openedOnMinimize = true
            Log.debug("pip: opening, the window was minimized while video plays")
            togglePictureInPicture()
        } else if openedOnMinimize {
            openedOnMinimize = false
            pictureInPicture?.close()
        }
    }

    private func togglePictureInPicture() {
        if let pictureInPicture {
            pictureInPicture.close()
            window()?.present()
            return
        }
        guard showsSomething else {
            Log.debug("pip: nothing playing to show")
            return
        }
        let content: PictureInPictureWindow.Content = if showsVideo, let video = nowPlaying.video { .video(video) } else { .artwork }
        let pip = PictureInPictureWindow(application: application, showing: content) { [weak self] in
            self?.pictureInPicture = nil
            self?.pictureInPictureArtwork = nil
            self?.openedOnMinimize = false
            self?.playbackChanged()
        }
        pictureInPicture = pip
        pip.update(playing: VideoView.isPlaying(nowPlaying.phase))
        if !content.isVideo { followArtwork(in: pip) }
        pip.present()
        playbackChanged()
    }

}
