import CGtk

/// AdwEntryRow: a titled text entry styled as a list row; put it in a
/// `ListBox` with the "boxed-list" style class.
@MainActor
public final class EntryRow: Widget {
    /// A `secret` row hides what is typed (AdwPasswordEntryRow), with a button to show it.
    public init(title: String, secret: Bool = false) {
        super.init(secret ? adw_password_entry_row_new() : adw_entry_row_new(), transfer: .full)
        adw_preferences_row_set_title(pointer(as: AdwPreferencesRow.self), title)
        setAccessibleLabel(title)
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Enter in the entry activates the dialog's or window's default response.
    public func activatesDefault() { adw_entry_row_set_activates_default(pointer(as: AdwEntryRow.self), 1) }

    public func onChanged(_ handler: @escaping @MainActor () -> Void) { onSignal("changed", handler) }

    /// Enter pressed in the entry.
    public func onActivated(_ handler: @escaping @MainActor () -> Void) { onSignal("entry-activated", handler) }
}

/// GtkListBox holding rows, e.g. a "boxed-list" of entry or action rows.
@MainActor
public final class ListBox: Widget {
    public init() {
        super.init(gtk_list_box_new(), transfer: .full)
        gtk_list_box_set_selection_mode(opaque, GTK_SELECTION_NONE)
        addCSSClass("boxed-list")
    }

    public func append(_ row: Widget) { gtk_list_box_append(opaque, row.widget) }
}
