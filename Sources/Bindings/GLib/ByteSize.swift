import CGLib

/// Byte counts for people, as GNOME apps write them (g_format_size: "1.2 MB",
/// decimal units): the words come from GLib's own translations and the
/// number from the user's locale, not from the app's catalog.
public enum ByteSize {
    public static func text(_ bytes: Int64) -> String {
        let formatted = g_format_size(guint64(max(bytes, 0)))!
        defer { g_free(formatted) }
        return String(cString: formatted)
    }
}
