import CGtk

/// Starts GTK and libadwaita without a GtkApplication (which does it in
/// `startup`), for tests that build widgets directly.
@MainActor
public enum Toolkit {
    /// Returns false when there is no display to open.
    public static func initialize() -> Bool {
        guard gtk_init_check() != 0 else { return false }
        adw_init()
        return true
    }
}
