import CGtk

/// GtkSearchEntry: a text entry with a search icon and a clear button.
@MainActor
public final class SearchEntry: Widget {
    public init(placeholder: String) {
        super.init(gtk_search_entry_new(), transfer: .full)
        try? setProperty("placeholder-text", placeholder)
        setAccessibleLabel(placeholder)
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Enter was pressed.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) { onSignal("activate", handler) }

    /// The text changed (after GTK's short typing delay), cleared included.
    public func onSearchChanged(_ handler: @escaping @MainActor () -> Void) { onSignal("search-changed", handler) }
}

/// GtkProgressBar.
@MainActor
public final class ProgressBar: Widget {
    public init() { super.init(gtk_progress_bar_new(), transfer: .full) }

    /// From 0 to 1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(opaque) }
        set { gtk_progress_bar_set_fraction(opaque, newValue) }
    }

    /// Moves the bar back and forth, for progress of unknown length.
    public func pulse() { gtk_progress_bar_pulse(opaque) }
}
