import CGtk

/// GtkSpinner: shows that something is under way (buffering, fetching).
/// It animates only while spinning and visible, so a hidden one costs nothing.
@MainActor
public final class Spinner: Widget {
    public init() { super.init(gtk_spinner_new(), transfer: .full) }

    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(opaque) != 0 }
        set {
            gtk_spinner_set_spinning(opaque, newValue ? 1 : 0)
            isVisible = newValue
        }
    }
}
