import CGtk
import CTrackcastVideo

/// Fullscreen, for the window that shows video.
extension ApplicationWindow {
    public var isFullscreen: Bool { gtk_window_is_fullscreen(pointer(as: GtkWindow.self)) != 0 }
    public func fullscreen() { gtk_window_fullscreen(pointer(as: GtkWindow.self)) }
    public func unfullscreen() { gtk_window_unfullscreen(pointer(as: GtkWindow.self)) }

    /// Called when the window enters or leaves fullscreen.
    public func onFullscreenChanged(_ handler: @escaping @MainActor () -> Void) {
        onSignal("notify::fullscreened") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}

/// What a floating window (picture-in-picture) needs.
extension Window {
    /// Without the window manager's title bar and borders.
    public func setDecorated(_ decorated: Bool) { gtk_window_set_decorated(pointer(as: GtkWindow.self), decorated ? 1 : 0) }

    public func close() { gtk_window_close(pointer(as: GtkWindow.self)) }

    /// Called when the user or the app asks the window to close; return true to keep it open.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) { onQuerySignal("close-request", handler) }

    /// Called each time the window is shown on screen.
    public func onMap(_ handler: @escaping @MainActor () -> Void) { onSignal("map", handler) }

    /// Asks the X11 window manager to keep the window above all others and
    /// on every workspace. False where no such request exists (Wayland) or
    /// before the window is mapped.
    @discardableResult
    public func requestAboveAndSticky() -> Bool {
        tc_window_request_above_and_sticky(pointer(as: GtkWindow.self)) != 0
    }
}

extension Window {
    /// Makes the window one of the application's, so "app." actions and
    /// accelerators work in it and the application lives while it is open.
    public func setApplication(_ application: Application) {
        gtk_window_set_application(pointer(as: GtkWindow.self), application.pointer(as: GtkApplication.self))
    }
}
