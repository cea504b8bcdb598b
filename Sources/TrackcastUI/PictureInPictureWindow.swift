import Bindings
import TrackcastCore

/// A small floating window showing the same video paintable as the main
/// window (so no second decoder): undecorated, resizable, moved by dragging
/// anywhere, with play/pause, back to the app and close on hover. On X11 it
/// asks the window manager to keep it above other windows and on every
/// workspace; Wayland has no protocol for that.
@MainActor
final class PictureInPictureWindow {
    /// Not translated: shell extensions and window rules that keep
    /// picture-in-picture on top match this exact title.
    static let title = "Picture-in-Picture"

    private let window = Window(title: PictureInPictureWindow.title)
    private let controls: Revealer
    private let playPause = Button(iconName: "media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause")
    private var closed: (@MainActor () -> Void)?

    /// - Parameter closed: called once when the window goes, however it was closed.
    init(application: Application, paintable: VideoPaintable, closed: @escaping @MainActor () -> Void) {
        self.closed = closed
        window.setApplication(application)
        window.setDecorated(false)
        let (width, height) = paintable.intrinsicSize
        let aspect = width > 0 && height > 0 ? Double(width) / Double(height) : 16.0 / 9.0
        window.setDefaultSize(width: 400, height: Int32((400 / aspect).rounded()))

        let picture = Picture(paintable)
        picture.addCSSClass("trackcast-video")
        let overlay = Overlay(child: picture)
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
            Timeout.once(after: 500) { window.requestAboveAndSticky() }
            Log.debug(requested ? "pip: shown, asked to stay above and on all workspaces"
                                : "pip: shown; this display cannot keep it above other windows")
        }
        window.onCloseRequest { [weak self] in
            self?.finish()
            return false
        }
    }

    func present() { window.present() }

    /// The play/pause button follows the player.
    func update(playing: Bool) {
        playPause.setIcon(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic",
                          tooltip: playing ? tr("Pause") : tr("Play"))
    }

    func close() { window.close() }

    private func finish() {
        Log.debug("pip: closed")
        let closed = self.closed
        self.closed = nil
        closed?()
    }
}
