import CGLib
import CGtk

/// GtkBox: children in a row or a column.
@MainActor
public final class Box: Widget {
    public init(_ orientation: Orientation, spacing: Int32 = 0) {
        super.init(gtk_box_new(orientation.gtk, spacing), transfer: .full)
    }

    public func append(_ child: Widget) {
        gtk_box_append(pointer(as: GtkBox.self), child.widget)
    }
}

/// AdwHeaderBar: the title bar with window controls.
@MainActor
public final class HeaderBar: Widget {
    public init() { super.init(adw_header_bar_new(), transfer: .full) }

    public func packEnd(_ child: Widget) {
        adw_header_bar_pack_end(opaque, child.widget)
    }

    public func packStart(_ child: Widget) {
        adw_header_bar_pack_start(opaque, child.widget)
    }

    /// Replaces the window title shown in the middle, e.g. with a show's name.
    public func setTitleWidget(_ child: Widget?) {
        adw_header_bar_set_title_widget(opaque, child?.widget)
    }
}

/// AdwStatusPage: an icon, a title, a description and optional actions, for
/// empty and error states.
@MainActor
public final class StatusPage: Widget {
    public init(iconName: String, title: String, description: String) {
        super.init(adw_status_page_new(), transfer: .full)
        let page = opaque
        adw_status_page_set_icon_name(page, iconName)
        adw_status_page_set_title(page, title)
        adw_status_page_set_description(page, description)
    }

    /// Plain text: libadwaita reads the description as Pango markup, so it is
    /// escaped first (it may quote what someone typed).
    public func setDescription(_ description: String) {
        guard let escaped = g_markup_escape_text(description, -1) else { return }
        adw_status_page_set_description(opaque, escaped)
        g_free(escaped)
    }

    public func setChild(_ child: Widget) {
        adw_status_page_set_child(opaque, child.widget)
    }
}

/// AdwToastOverlay: shows brief in-app notifications over its child.
@MainActor
public final class ToastOverlay: Widget {
    public init(child: Widget) {
        super.init(adw_toast_overlay_new(), transfer: .full)
        adw_toast_overlay_set_child(opaque, child.widget)
    }

    /// Shows `title` as plain text: a toast's title is Pango markup, and
    /// messages can carry feed titles or URLs with `<` and `&`.
    /// A `button` activates its detailed action name (`app.retry`).
    public func showToast(_ title: String, button: (label: String, action: String)? = nil) {
        let escaped = g_markup_escape_text(title, -1)!
        defer { g_free(escaped) }
        let toast = adw_toast_new(escaped)
        if let button {
            adw_toast_set_button_label(toast, button.label)
            adw_toast_set_action_name(toast, button.action)
        }
        adw_toast_overlay_add_toast(opaque, toast)
    }
}

/// GtkSeparator: a thin line between parts of a layout.
@MainActor
public final class Separator: Widget {
    public init(_ orientation: Orientation = .horizontal) {
        super.init(gtk_separator_new(orientation.gtk), transfer: .full)
    }
}
