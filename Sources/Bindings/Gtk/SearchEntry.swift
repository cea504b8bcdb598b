import CGtk

/// GtkSearchEntry: a text entry with a search icon and a clear button; Enter
/// and Ctrl+G go to the next match, Shift+Enter and Ctrl+Shift+G to the previous.
@MainActor
public final class SearchEntry: Widget {
    public init(placeholder: String) {
        super.init(gtk_search_entry_new(), transfer: .full)
        // The placeholder is a property of GtkSearchEntry itself in GTK 4.8
        // (gtk_search_entry_set_placeholder_text came in 4.10).
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

    /// Enter, or Ctrl+G.
    public func onNextMatch(_ handler: @escaping @MainActor () -> Void) {
        onSignal("activate", handler)
        onSignal("next-match", handler)
    }

    /// Ctrl+Shift+G.
    public func onPreviousMatch(_ handler: @escaping @MainActor () -> Void) { onSignal("previous-match", handler) }
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
