import Bindings
import Foundation
import TrackcastCore

/// The video in the main window: letterboxed on black (the paintable draws
/// the bars), with play/pause, picture-in-picture and fullscreen over it.
/// The controls and the pointer hide after a few seconds without movement
/// and come back with it; a double-click toggles fullscreen; a spinner
/// shows while loading or buffering, a message when the video cannot play.
/// While picture-in-picture shows the video, a placeholder stands here
/// instead, as in a browser: one picture to watch, each frame drawn once.
@MainActor
final class VideoView {
    let root: Overlay
    private let picture: Picture
    private let inPictureInPicture = StatusPage(iconName: "view-restore-symbolic", title: tr("Playing in Picture-in-Picture"),
                                                description: "")
    private let controls: Revealer
    private let playPause = Button(iconName: "media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause")
    private let spinner = Spinner()
    private let message = Label()
    private let trackMenu = TrackMenu()
    private var lastMotion = ContinuousClock.now
    /// Set while the controls are shown; it hides them once the pointer rests.
    private var hideCheck: Timeout?
    private static let idleBeforeHiding: Duration = .seconds(3)

    /// The CSS class of a window while it shows video: it draws no
    /// background, so nothing is drawn under the frame (which makes drawing
    /// it one copy, see `Picture`); the paintable draws its own bars.
    static let windowClass = "trackcast-showing-video"

    init(paintable: VideoPaintable) {
        StyleSheet.add("window.\(Self.windowClass) { background: none; }")
        // Without a compositor GTK draws the window's frame itself, as
        // lines of translucent colour over its background (Adwaita's
        // solid-csd shadows, here with the background put back under them
        // as the first shadow, which GTK draws first): over nothing they
        // came out black.
        StyleSheet.add("""
            window.solid-csd.\(Self.windowClass) { box-shadow: inset 0 0 0 5px @window_bg_color,
              inset 0 0 0 5px alpha(currentColor,0.15), inset 0 0 0 4px @headerbar_bg_color,
              inset 0 0 0 1px alpha(currentColor,0.15); }
            window.solid-csd.\(Self.windowClass):backdrop { box-shadow: inset 0 0 0 5px @window_bg_color,
              inset 0 0 0 5px alpha(currentColor,0.15), inset 0 0 0 4px @headerbar_backdrop_color,
              inset 0 0 0 1px alpha(currentColor,0.15); }
            """)
        picture = Picture(paintable)
        picture.expandVertically()
        picture.expandHorizontally()
        root = Overlay(child: picture)

        let bar = Box(.horizontal, spacing: 6)
        bar.addCSSClass("osd")
        bar.addCSSClass("toolbar")
        bar.setMargins(12)
        let pip = Button(iconName: "view-restore-symbolic", tooltip: tr("Picture-in-Picture"), action: "app.pip")
        let fullscreen = Button(iconName: "view-fullscreen-symbolic", tooltip: tr("Fullscreen"), action: "app.fullscreen")
        for button in [playPause, pip, fullscreen] {
            button.addCSSClass("flat")
            bar.append(button)
        }
        bar.append(trackMenu.root)
        controls = Revealer(child: bar)
        controls.align(horizontal: .center, vertical: .end)
        controls.isRevealed = true
        root.addOverlay(controls)

        spinner.setSizeRequest(width: 48, height: 48)
        spinner.align(horizontal: .center, vertical: .center)
        spinner.isSpinning = false
        root.addOverlay(spinner)

        message.wrap()
        message.addCSSClass("osd")
        message.setMargins(24)
        message.align(horizontal: .center, vertical: .center)
        message.isVisible = false
        root.addOverlay(message)

        // The window draws no background while it shows video (`windowClass`): the placeholder brings its own.
        StyleSheet.add(".trackcast-video-elsewhere { background: @window_bg_color; }")
        inPictureInPicture.addCSSClass("trackcast-video-elsewhere")
        let showHere = Button(label: tr("Show Here"), action: "app.pip")
        showHere.addCSSClass("pill")
        showHere.align(horizontal: .center, vertical: .center)
        inPictureInPicture.setChild(showHere)
        inPictureInPicture.isVisible = false
        root.addOverlay(inPictureInPicture)

        let motion = MotionController()
        motion.onMotion { [weak self] _, _ in self?.pointerMoved() }
        root.addController(motion)
        let clicks = ClickGesture()
        clicks.onPressed { [weak root] count in
            if count == 2 { root?.activateAction("app.fullscreen", parameter: nil) }
        }
        root.addController(clicks)
        pointerMoved()
    }

    /// Shows the phase (spinner while waiting, the error when it failed)
    /// and the tracks on offer.
    func update(phase: PlaybackPhase, tracks: TrackSelection) {
        trackMenu.render(tracks)
        switch phase {
        case .loading, .buffering:
            spinner.isSpinning = true
            message.isVisible = false
        case .failed(let error):
            spinner.isSpinning = false
            message.text = String(format: tr("This video cannot be played: %@"), FailureText.playback(error))
            message.isVisible = true
            Log.debug("video: message: \(message.text)")
        case .idle, .ready, .playing, .paused, .ended:
            spinner.isSpinning = false
            message.isVisible = false
        }
        let playing = Self.isPlaying(phase)
        playPause.setIcon(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic",
                          tooltip: playing ? tr("Pause") : tr("Play"))
    }

    /// The placeholder while picture-in-picture shows the video, or the video again.
    func showInPictureInPicture(_ shownThere: Bool) {
        guard picture.isVisible == shownThere else { return }
        picture.isVisible = !shownThere
        controls.isVisible = !shownThere
        inPictureInPicture.isVisible = shownThere
        Log.debug(shownThere ? "video: in picture-in-picture, a placeholder here" : "video: shown here again")
    }

    /// Playing, or about to go on after buffering: the button offers to pause.
    static func isPlaying(_ phase: PlaybackPhase) -> Bool {
        switch phase {
        case .playing, .buffering: true
        case .idle, .loading, .ready, .paused, .ended, .failed: false
        }
    }

    private func pointerMoved() {
        lastMotion = .now
        guard hideCheck == nil else { return }
        controls.isRevealed = true
        root.setCursor(named: nil)
        hideCheck = Timeout(milliseconds: UInt32(Self.idleBeforeHiding / .milliseconds(1))) { [weak self] in
            guard let self else { return false }
            guard ContinuousClock.now - lastMotion >= Self.idleBeforeHiding else { return true }
            controls.isRevealed = false
            root.setCursor(named: "none")
            hideCheck = nil
            // For the tests that read the picture from a screenshot.
            Log.debug("video: controls hidden")
            return false
        }
    }

    isolated deinit { hideCheck?.cancel() }
}
