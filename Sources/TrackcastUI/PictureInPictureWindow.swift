import Bindings
import TrackcastCore

/// A small floating window showing the same video paintable as the main
/// window (so no second decoder), or for audio the artwork (a chapter's
/// picture while it plays, else the episode's): undecorated, resizable with the video's
/// aspect kept, moved by dragging anywhere, with play/pause, back to the
/// app and close on hover. On X11 it asks the window manager to keep it
/// above other windows and on every workspace, and to keep the aspect while
/// the user resizes it; Wayland has no protocol for either, so there it
/// offers the compositor's window menu ("Keep on Top…"), which is where
/// GNOME and KDE put "Always on Top", and snaps its size after a resize.
@MainActor
final class PictureInPictureWindow {
    /// Not translated: shell extensions and window rules that keep
    /// picture-in-picture on top match this exact title.
    static let title = "Picture-in-Picture"

    private let window = Window(title: PictureInPictureWindow.title)
    private let controls: Revealer
    private let playPause = Button(iconName: "media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause")
    private var closed: (@MainActor () -> Void)?
    private let content: Content
    /// Set while a resize settles: the size is snapped once it has.
    private var sizeSettling: Timeout?

    /// Audio's picture and the icon shown while there is none.
    private let artwork = Picture()
    private let noArtwork = Image(iconName: "audio-x-generic-symbolic", pixelSize: 128)

    /// What the window shows.
    enum Content {
        case video(VideoPaintable)
        /// Audio: `showArtwork` sets the picture, a square as covers are.
        case artwork

        var isVideo: Bool {
            if case .video = self { true } else { false }
        }
    }

    /// The artwork's size in pixels: the window's default, and room to grow.
    static let artworkSize: Int32 = 480

    /// - Parameter closed: called once when the window goes, however it was closed.
    init(application: Application, showing content: Content, closed: @escaping @MainActor () -> Void) {
        self.closed = closed
        self.content = content
        window.setApplication(application)
        window.setDecorated(false)
        window.addCSSClass(VideoView.windowClass)
        let aspect = Self.aspect(of: content)
        window.setDefaultSize(width: 400, height: Int32((400 / aspect.ratio).rounded()))

        let overlay: Overlay
        switch content {
        case .video(let paintable):
            overlay = Overlay(child: Picture(paintable))
        case .artwork:
            overlay = Overlay(child: artwork)
            noArtwork.align(horizontal: .center, vertical: .center)
            overlay.addOverlay(noArtwork)
        }
        let bar = Box(.horizontal, spacing: 6)
        bar.addCSSClass("osd")
        bar.addCSSClass("toolbar")
        bar.setMargins(8)
        let back = Button(iconName: "view-restore-symbolic", tooltip: tr("Back to Trackcast"), action: "app.pip")
        let close = Button(iconName: "window-close-symbolic", tooltip: tr("Close"))
        close.onClicked { [window] in window.close() }
        for button in [playPause, back, close] {
            button.addCSSClass("flat")
            bar.append(button)
        }
        if !Window.isOnX11 {
            // No protocol lets a Wayland client keep itself above others;
            // the compositor's own window menu can, and says so itself.
            let keepOnTop = Button(iconName: "view-pin-symbolic",
                                   tooltip: tr("Keep on Top…: Wayland lets only the desktop keep a window above others; choose “Always on Top” in its menu"))
            keepOnTop.addCSSClass("flat")
            let press = ClickGesture()
            press.onPressed { [window, press] _ in
                if !window.showWindowMenu(at: press) { Log.debug("pip: the desktop offers no window menu") }
            }
            keepOnTop.addController(press)
            bar.append(keepOnTop)
        }
        controls = Revealer(child: bar)
        controls.align(horizontal: .center, vertical: .end)
        controls.isRevealed = false
        overlay.addOverlay(controls)
        let motion = MotionController()
        motion.onMotion { [controls] _, _ in controls.isRevealed = true }
        motion.onLeave { [controls] in controls.isRevealed = false }
        overlay.addController(motion)
        let keys = ShortcutController(phase: .bubble)
        keys.add(trigger: "p", action: "app.pip")
        keys.add(trigger: "space", action: "app.play-pause")
        overlay.addController(keys)
        window.setChild(WindowHandle(child: overlay))

        window.onMap { [window] in
            // Right at map the window manager may not manage the window yet
            // and would drop the request; asking again a moment later is
            // harmless (the states are added, not toggled).
            let requested = window.requestAboveAndSticky()
            let aspect = Self.aspect(of: content)
            let locked = window.lockAspect(width: aspect.width, height: aspect.height)
            Timeout.once(after: 500) {
                window.requestAboveAndSticky()
                window.lockAspect(width: aspect.width, height: aspect.height)
            }
            if locked { Log.debug("pip: aspect locked at \(aspect.width):\(aspect.height)") }
            Log.debug(requested ? "pip: shown, asked to stay above and on all workspaces"
                                : "pip: shown; this display cannot keep it above other windows")
        }
        window.onCloseRequest { [weak self] in
            self?.finish()
            return false
        }
        window.onSizeChanged { [weak self] in self?.sizeChanged() }
    }

    /// The video's display size (pixel aspect applied), 16:9 before a
    /// frame; artwork is square.
    private static func aspect(of content: Content) -> (width: Int, height: Int, ratio: Double) {
        guard case .video(let paintable) = content else { return (1, 1, 1) }
        let (width, height) = paintable.intrinsicSize
        guard width > 0, height > 0 else { return (16, 9, 16.0 / 9.0) }
        return (width, height, Double(width) / Double(height))
    }

    /// Once a resize has settled, the height follows the width at the
    /// video's aspect: where the window manager kept the aspect (X11) this
    /// changes nothing; elsewhere it snaps. A moment's wait, so a drag in
    /// progress is not fought.
    private func sizeChanged() {
        sizeSettling?.cancel()
        sizeSettling = Timeout(milliseconds: 300) { [weak self] in
            self?.sizeSettling = nil
            self?.snapToAspect()
            return false
        }
    }

    private func snapToAspect() {
        let aspect = Self.aspect(of: content)
        // GTK may have written its own size hints since: ask again.
        window.lockAspect(width: aspect.width, height: aspect.height)
        let (width, height) = window.defaultSize
        let wanted = Int32((Double(width) / aspect.ratio).rounded())
        if abs(wanted - height) > 2 {
            window.defaultSize = (width, wanted)
            Log.debug("pip: size \(width)x\(height) snapped to \(width)x\(wanted)")
        } else {
            Log.debug("pip: size \(width)x\(height)")
        }
    }

    func present() { window.present() }

    /// The play/pause button follows the player.
    func update(playing: Bool) {
        playPause.setIcon(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic",
                          tooltip: playing ? tr("Pause") : tr("Play"))
    }

    func close() { window.close() }

    /// Whether it shows video (else artwork) as `video` says it should.
    func shows(video: Bool) -> Bool { content.isVideo == video }

    /// Audio's picture: `texture`, or the placeholder icon for none.
    func showArtwork(_ texture: Texture?) {
        artwork.setTexture(texture)
        noArtwork.isVisible = texture == nil
    }

    isolated deinit { sizeSettling?.cancel() }

    private func finish() {
        Log.debug("pip: closed")
        let closed = self.closed
        self.closed = nil
        closed?()
    }
}
