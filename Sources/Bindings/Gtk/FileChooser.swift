import CGLib
import CGtk

/// GtkFileChooserNative for opening or saving one file: the desktop's own dialog, or
/// the file chooser portal inside a sandbox (GTK 4.8 has no GtkFileDialog).
@MainActor
public final class FileChooser: ObjectRef {
    /// For opening a file, or with `savingAs` a suggested name, for saving one.
    public init(title: String, transientFor parent: ApplicationWindow?, acceptLabel: String, cancelLabel: String,
                savingAs suggestedName: String? = nil) {
        let action = suggestedName == nil ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE
        super.init(gtk_file_chooser_native_new(title, parent?.pointer(as: GtkWindow.self), action,
                                               acceptLabel, cancelLabel), transfer: .full)
        gtk_native_dialog_set_modal(pointer(as: GtkNativeDialog.self), 1)
        if let suggestedName { gtk_file_chooser_set_current_name(opaque, suggestedName) }
    }

    /// Offers only files matching one of `patterns` (e.g. "*.opml") or `mimeTypes`.
    public func addFilter(name: String, patterns: [String], mimeTypes: [String]) {
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, name)
        for pattern in patterns { gtk_file_filter_add_pattern(filter, pattern) }
        for type in mimeTypes { gtk_file_filter_add_mime_type(filter, type) }
        gtk_file_chooser_add_filter(opaque, filter)
        g_object_unref(gpointer(filter))
    }

    /// Shows the dialog; `handler` gets the chosen file's URI, or nil when cancelled.
    /// The chooser keeps itself alive until it has answered: the handler
    /// holds the wrapper, and disconnecting it after the answer lets both go.
    public func choose(_ handler: @escaping @MainActor (String?) -> Void) {
        var connection: SignalConnection?
        connection = onIntegerSignal("response") { [self] response in
            var uri: String?
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(opaque) {
                if let text = g_file_get_uri(file) {
                    uri = String(cString: text)
                    g_free(text)
                }
                g_object_unref(gpointer(file))
            }
            handler(uri)
            connection?.disconnect()
        }
        gtk_native_dialog_show(pointer(as: GtkNativeDialog.self))
    }
}
