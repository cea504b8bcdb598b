import CGtk

/// AdwApplicationWindow: a top-level window that belongs to the application.
@MainActor
public final class ApplicationWindow: Widget {
    public init(application: Application) {
        super.init(adw_application_window_new(application.pointer(as: GtkApplication.self)), transfer: .none)
    }

    private var window: UnsafeMutablePointer<GtkWindow> { pointer(as: GtkWindow.self) }

    /// Opens `uri` in the desktop's handler for it (the browser for a web
    /// address; through the OpenURI portal inside Flatpak), without waiting:
    /// GTK reports a failure itself.
    public func showURI(_ uri: String) {
        gtk_show_uri(window, uri, guint32(GDK_CURRENT_TIME))
    }

    public func setContent(_ content: Widget) {
        adw_application_window_set_content(pointer(as: AdwApplicationWindow.self), content.widget)
    }

    public var title: String {
        get { gtk_window_get_title(window).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(window, newValue) }
    }

    /// The size the window opens with; while open, its current unmaximized size.
    public var defaultSize: (width: Int32, height: Int32) {
        get {
            var width: Int32 = 0
            var height: Int32 = 0
            gtk_window_get_default_size(window, &width, &height)
            return (width, height)
        }
        set { gtk_window_set_default_size(window, newValue.width, newValue.height) }
    }

    public var isMaximized: Bool { gtk_window_is_maximized(window) != 0 }
    public func maximize() { gtk_window_maximize(window) }

    /// Called when the user or the app asks the window to close; return true
    /// to keep it open.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
        onQuerySignal("close-request", handler)
    }

    public func present() { gtk_window_present(window) }
    public func close() { gtk_window_close(window) }

    /// Hides the window without destroying it, e.g. while playback goes on
    /// in the background.
    public func hide() { gtk_widget_set_visible(widget, 0) }

    /// Whether the keyboard focus is somewhere a key means something of its
    /// own: in text being edited (an entry, a search field, a spin button's
    /// text: GtkEditable) or in a popover, whose controls are what the
    /// person is working with. Window-wide keys such as Space stand back there.
    public var focusWantsTyping: Bool {
        var widget = gtk_window_get_focus(window)
        while let current = widget {
            let instance = UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gtk_editable_get_type()) != 0
                || g_type_check_instance_is_a(instance, gtk_popover_get_type()) != 0 { return true }
            widget = gtk_widget_get_parent(current)
        }
        return false
    }
}

/// A plain top-level GtkWindow, e.g. for a test that needs a widget on screen.
@MainActor
public final class Window: Widget {
    public init(title: String) {
        // GTK keeps top-levels alive in its own list until destroyed; the
        // wrapper holds its own reference on top.
        super.init(gtk_window_new(), transfer: .none)
        gtk_window_set_title(pointer(as: GtkWindow.self), title)
    }

    public func setChild(_ child: Widget) { gtk_window_set_child(pointer(as: GtkWindow.self), child.widget) }

    public func setDefaultSize(width: Int32, height: Int32) {
        gtk_window_set_default_size(pointer(as: GtkWindow.self), width, height)
    }

    public func present() { gtk_window_present(pointer(as: GtkWindow.self)) }
    public func destroy() { gtk_window_destroy(pointer(as: GtkWindow.self)) }
}

/// AdwAboutWindow, the standard GNOME about dialog.
@MainActor
public final class AboutWindow: Widget {
    public init(transientFor parent: ApplicationWindow?, applicationName: String, applicationIcon: String,
                version: String, developerName: String, website: String, license: License) {
        super.init(adw_about_window_new(), transfer: .none)
        let about = opaque
        adw_about_window_set_application_name(about, applicationName)
        adw_about_window_set_application_icon(about, applicationIcon)
        adw_about_window_set_version(about, version)
        adw_about_window_set_developer_name(about, developerName)
        adw_about_window_set_website(about, website)
        adw_about_window_set_license_type(about, license.gtk)
        if let parent { gtk_window_set_transient_for(pointer(as: GtkWindow.self), parent.pointer(as: GtkWindow.self)) }
        gtk_window_set_modal(pointer(as: GtkWindow.self), 1)
    }

    public enum License {
        case gpl3OrLater
        var gtk: GtkLicense { GTK_LICENSE_GPL_3_0 }
    }

    /// Text the user can copy into a bug report.
    public func setDebugInfo(_ text: String) { adw_about_window_set_debug_info(opaque, text) }

    /// Where the "Report an Issue" button leads.
    public func setIssueURL(_ url: String) { adw_about_window_set_issue_url(opaque, url) }

    /// The "What's New" page: `markup` in the metainfo's description subset, for `version`.
    public func setReleaseNotes(_ markup: String, version: String) {
        adw_about_window_set_release_notes(opaque, markup)
        adw_about_window_set_release_notes_version(opaque, version)
    }

    /// Who translated the app, one per line, as the translation says.
    public func setTranslatorCredits(_ credits: String) { adw_about_window_set_translator_credits(opaque, credits) }

    public func present() { gtk_window_present(pointer(as: GtkWindow.self)) }
}
