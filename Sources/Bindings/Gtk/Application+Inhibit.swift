import CGtk

/// Keeping the screen awake while video plays.
extension Application {
    /// Asks the session not to blank the screen or go idle; returns the
    /// cookie for `uninhibit`, 0 if the session offers no way to inhibit.
    public func inhibitIdle(window: ApplicationWindow?, reason: String) -> UInt32 {
        gtk_application_inhibit(pointer(as: GtkApplication.self), window?.pointer(as: GtkWindow.self),
                                GTK_APPLICATION_INHIBIT_IDLE, reason)
    }

    public func uninhibit(_ cookie: UInt32) { gtk_application_uninhibit(pointer(as: GtkApplication.self), cookie) }
}
