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
