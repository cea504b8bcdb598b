import CAdwaita

/// AdwViewStack: named pages, one shown at a time (empty state or content).
@MainActor
public final class ViewStack: Widget {
    public init() { super.init(adw_view_stack_new(), transfer: .full) }

    public func add(_ child: Widget, name: String) {
        _ = adw_view_stack_add_named(opaque, child.widget, name)
    }

    public var visibleChildName: String? {
        get { adw_view_stack_get_visible_child_name(opaque).map { String(cString: $0) } }
        set { if let newValue { adw_view_stack_set_visible_child_name(opaque, newValue) } }
    }
}
