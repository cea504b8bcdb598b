import CGtk

/// AdwViewStack: named pages, one shown at a time (empty state or content).
@MainActor
public final class ViewStack: Widget {
    public init() { super.init(adw_view_stack_new(), transfer: .full) }

    public func add(_ child: Widget, name: String) {
        _ = adw_view_stack_add_named(opaque, child.widget, name)
    }

    /// A page a `ViewSwitcher` offers, with its title and icon. An
    /// underscore in the title marks the mnemonic: Alt and that letter shows the page.
    public func add(_ child: Widget, name: String, title: String, iconName: String) {
        let page = adw_view_stack_add_titled_with_icon(opaque, child.widget, name, title, iconName)
        if title.contains("_") { adw_view_stack_page_set_use_underline(page, 1) }
    }

    public var visibleChildName: String? {
        get { adw_view_stack_get_visible_child_name(opaque).map { String(cString: $0) } }
        set { if let newValue { adw_view_stack_set_visible_child_name(opaque, newValue) } }
    }
}

/// AdwViewSwitcher: buttons for a view stack's titled pages, each icon above
/// its label, which fits a 360-pixel window in English (side by side would
/// not; longer labels are ellipsized).
@MainActor
public final class ViewSwitcher: Widget {
    public init(stack: ViewStack) {
        super.init(adw_view_switcher_new(), transfer: .full)
        adw_view_switcher_set_stack(opaque, stack.opaque)
        adw_view_switcher_set_policy(opaque, ADW_VIEW_SWITCHER_POLICY_NARROW)
    }
}
