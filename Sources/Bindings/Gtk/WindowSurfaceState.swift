import CGtk
import CTrackcastVideo

/// A window's GdkToplevel state, watched: minimised (iconified) or not.
/// GTK 4 tells it only on the window's surface, which exists once the
/// window is realized; this follows the surface's `notify::state`.
@MainActor
public final class WindowSurfaceState {
    /// The surface, held while watched.
    private var surface: ObjectRef?
    private var lastMinimized = false

    /// Calls `changed` with the new value each time the window becomes
    /// minimised or stops being so.
    public init(of window: Widget, changed: @escaping @MainActor (_ isMinimized: Bool) -> Void) {
        let follow: @MainActor () -> Void = { [weak self, weak window] in
            guard let self, let window, self.surface == nil,
                  let native = gtk_native_get_surface(OpaquePointer(window.widget)) else { return }
            let surface = ObjectRef(UnsafeMutableRawPointer(native), transfer: .none)
            self.surface = surface
            surface.onSignal("notify::state") { (_: UnsafeMutableRawPointer?) in
                let minimized = Self.isMinimized(native)
                guard minimized != self.lastMinimized else { return }
                self.lastMinimized = minimized
                changed(minimized)
            }
        }
        if gtk_widget_get_realized(window.widget) != 0 { follow() }
        window.onSignal("realize", follow)
    }

    private static func isMinimized(_ surface: OpaquePointer) -> Bool {
        gdk_toplevel_get_state(surface).rawValue & GDK_TOPLEVEL_STATE_MINIMIZED.rawValue != 0
    }
}

/// What picture-in-picture needs beyond a plain window.
extension Window {
    /// Whether windows here are X11 ones, where the window manager takes
    /// requests (keep above, aspect); on Wayland only the compositor decides.
    public static var isOnX11: Bool { tc_display_is_x11() != 0 }

    /// The size it opens with; while open, its current size (GTK 4 keeps
    /// them the same), which setting changes.
    public var defaultSize: (width: Int32, height: Int32) {
        get {
            var width: Int32 = 0
            var height: Int32 = 0
            gtk_window_get_default_size(pointer(as: GtkWindow.self), &width, &height)
            return (width, height)
        }
        set { gtk_window_set_default_size(pointer(as: GtkWindow.self), newValue.width, newValue.height) }
    }

    /// Called when the window's size changes, by the user or the app.
    public func onSizeChanged(_ handler: @escaping @MainActor () -> Void) {
        onSignal("notify::default-width") { (_: UnsafeMutableRawPointer?) in handler() }
        onSignal("notify::default-height") { (_: UnsafeMutableRawPointer?) in handler() }
    }

    /// Asks the X11 window manager to keep width:height at `width`:`height`
    /// while the user resizes the window. False where no such request
    /// exists (Wayland) or before the window is mapped.
    @discardableResult
    public func lockAspect(width: Int, height: Int) -> Bool {
        tc_window_lock_aspect(pointer(as: GtkWindow.self), Int32(clamping: width), Int32(clamping: height)) != 0
    }

    /// Opens the desktop's own menu for the window (move, resize, "Always
    /// on Top" where the compositor has it) at the click `gesture` is
    /// handling. False without a click or a mapped window.
    @discardableResult
    public func showWindowMenu(at gesture: ClickGesture) -> Bool {
        guard let surface = gtk_native_get_surface(OpaquePointer(widget)),
              let event = gtk_event_controller_get_current_event(gesture.opaque)
        else { return false }
        return gdk_toplevel_show_window_menu(surface, event) != 0
    }
}
