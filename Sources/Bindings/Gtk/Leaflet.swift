import CGtk

/// AdwLeaflet: pages side by side when they fit, one at a time (with a
/// swipe and a back button) when they do not. With unfolding turned off it
/// is a navigation stack, libadwaita 1.2's stand-in for AdwNavigationView.
@MainActor
public final class Leaflet: Widget {
    public init(canUnfold: Bool) {
        super.init(adw_leaflet_new(), transfer: .full)
        adw_leaflet_set_can_unfold(opaque, canUnfold ? 1 : 0)
        adw_leaflet_set_can_navigate_back(opaque, 1)
    }

    public func append(_ child: Widget, name: String) {
        let page = adw_leaflet_append(opaque, child.widget)
        adw_leaflet_page_set_name(page, name)
        keepShadowAfterPages()
    }

    /// The CSS names of the four parts of the shadow drawn during a transition.
    private static let shadowParts: Set<String> = ["dimming", "shadow", "border", "outline"]

    /// libadwaita 1.2's leaflet sets the CSS classes of its shadow's parts
    /// again at every allocation, and GTK 4.8 then restyles every node that
    /// follows them among the leaflet's children: every page, whole. A list
    /// binding a row resizes everything up to the window, so on the big show
    /// page that was each frame of a scroll (see docs/BENCHMARKS.md).
    /// Kept after the pages, the parts restyle only themselves. The leaflet
    /// draws them itself and they never take the pointer, so their place
    /// among the children changes nothing else. (Later libadwaita sets the
    /// classes only when the direction of the transition changes.)
    private func keepShadowAfterPages() {
        var parts: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if Self.shadowParts.contains(String(cString: gtk_widget_get_css_name(current))) { parts.append(current) }
            child = gtk_widget_get_next_sibling(current)
        }
        for part in parts { gtk_widget_insert_before(part, widget, nil) }
    }

    public func show(_ child: Widget) { adw_leaflet_set_visible_child(opaque, child.widget) }

    public var visibleChildName: String? {
        adw_leaflet_get_visible_child_name(opaque).map { String(cString: $0) }
    }

    /// Called when the visible page changes, by code or by a swipe back.
    public func onVisibleChildChanged(_ handler: @escaping @MainActor () -> Void) {
        onSignal("notify::visible-child") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}
