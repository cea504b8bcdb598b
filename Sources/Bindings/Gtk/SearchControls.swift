import CGLib
import CGtk

/// GtkToggleButton showing an icon: on or off, e.g. "follow playback".
@MainActor
public final class ToggleButton: Widget {
    public init(iconName: String, tooltip: String) {
        super.init(gtk_toggle_button_new(), transfer: .full)
        gtk_button_set_icon_name(pointer(as: GtkButton.self), iconName)
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
    }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(pointer(as: GtkToggleButton.self)) != 0 }
        set { gtk_toggle_button_set_active(pointer(as: GtkToggleButton.self), newValue ? 1 : 0) }
    }

    /// Called whenever the state changes, by a click or by code.
    public func onToggled(_ handler: @escaping @MainActor () -> Void) { onSignal("toggled", handler) }
}

/// GtkLinkButton: a button that opens an address in the browser. The
/// label is plain text; the caller checks the address is one to open.
@MainActor
public final class LinkButton: Widget {
    public init(uri: String, label: String) {
        super.init(gtk_link_button_new_with_label(uri, label), transfer: .full)
    }

    /// Points the button elsewhere (a list row rebound to another item),
    /// which also forgets that it was visited.
    public func setURI(_ uri: String) { gtk_link_button_set_uri(opaque, uri) }

    /// Plain text, as at creation.
    public func setLabel(_ label: String) { gtk_button_set_label(pointer(as: GtkButton.self), label) }
}

/// GtkEventControllerScroll for vertical scrolling: the wheel, a touchpad
/// or a touchscreen's kinetic swipe, which a person does and code does not.
@MainActor
public final class ScrollController: EventController {
    public init() {
        super.init(gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL), transfer: .full)
        // Sees the scroll before the scrolled window takes it.
        gtk_event_controller_set_propagation_phase(opaque, GTK_PHASE_CAPTURE)
    }

    /// Each scroll step; the handler never consumes it, so the view still scrolls.
    public func onScroll(_ handler: @escaping @MainActor () -> Void) {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, _, _, userData in
            let handler = SignalHandlerBox<Handler>.from(userData).handler
            MainActor.assumeIsolated { handler() }
            return 0
        }
        connect(signal: "scroll", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<Handler>(handler))
    }
}

extension ListView {
    /// Scrolls just enough to show the row at `position` (GtkListBase's
    /// `list.scroll-to-item` action: `gtk_list_view_scroll_to` needs GTK 4.12).
    public func scrollTo(_ position: Int) {
        activateAction("list.scroll-to-item", parameter: Variant(UInt32(position)))
    }
}

/// AdwBin: holds one child, replaced as a whole (e.g. sections rebuilt for
/// each episode shown).
@MainActor
public final class Bin: Widget {
    public init() { super.init(adw_bin_new(), transfer: .full) }

    public func setChild(_ child: Widget?) { adw_bin_set_child(pointer(as: AdwBin.self), child?.widget) }
}
