import CGLib
import CGtk

/// Any GtkWidget. Widgets are main-thread objects.
@MainActor
open class Widget: ObjectRef {
    public var widget: UnsafeMutablePointer<GtkWidget> { pointer(as: GtkWidget.self) }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(widget, name) }

    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }

    public func hasCSSClass(_ name: String) -> Bool { gtk_widget_has_css_class(widget, name) != 0 }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// Whether the pointer can land on this widget and its descendants
    /// (hover, clicks); when not, it lands on what is behind them.
    public var canTarget: Bool {
        get { gtk_widget_get_can_target(widget) != 0 }
        set { gtk_widget_set_can_target(widget, newValue ? 1 : 0) }
    }

    public enum Alignment {
        case fill, start, end, center

        var gtk: GtkAlign {
            switch self {
            case .fill: GTK_ALIGN_FILL
            case .start: GTK_ALIGN_START
            case .end: GTK_ALIGN_END
            case .center: GTK_ALIGN_CENTER
            }
        }
    }

    public func align(horizontal: Alignment, vertical: Alignment) {
        gtk_widget_set_halign(widget, horizontal.gtk)
        gtk_widget_set_valign(widget, vertical.gtk)
    }

    /// Lets the widget take the extra vertical space of its container.
    public func expandVertically() { gtk_widget_set_vexpand(widget, 1) }

    /// Lets the widget take the extra horizontal space of its container.
    public func expandHorizontally() { gtk_widget_set_hexpand(widget, 1) }

    public func setMargins(top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
        gtk_widget_set_margin_top(widget, top)
        gtk_widget_set_margin_bottom(widget, bottom)
        gtk_widget_set_margin_start(widget, start)
        gtk_widget_set_margin_end(widget, end)
    }

    public func setMargins(_ all: Int32) { setMargins(top: all, bottom: all, start: all, end: all) }

    /// The allocated height, in logical pixels.
    public var height: Int32 { gtk_widget_get_height(widget) }

    /// The smallest size the widget may be given; -1 leaves a dimension natural.
    public func setSizeRequest(width: Int32, height: Int32) { gtk_widget_set_size_request(widget, width, height) }

    public func setTooltip(_ text: String) { gtk_widget_set_tooltip_text(widget, text) }

    /// Attaches an event controller (keys, drops) to this widget.
    public func addController(_ controller: EventController) {
        gtk_widget_add_controller(widget, controller.opaque.retained())
    }

    /// Moves the keyboard focus here (or into the widget, for a list).
    public func grabFocus() { gtk_widget_grab_focus(widget) }

    /// Whether the keyboard focus of this widget's window is on it or inside it (on a list's row).
    public var containsFocus: Bool {
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }

    public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

    /// Where the widget is on its window's surface, in logical pixels (what
    /// `xdotool mousemove --window` takes); nil while it is not laid out.
    public var boundsOnSurface: (x: Double, y: Double, width: Double, height: Double)? {
        guard let root = gtk_widget_get_root(widget) else { return nil }
        let rootWidget = UnsafeMutablePointer<GtkWidget>(root)
        var rect = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, rootWidget, &rect) != 0 else { return nil }
        var (surfaceX, surfaceY) = (0.0, 0.0)
        gtk_native_get_surface_transform(root, &surfaceX, &surfaceY)
        return (Double(rect.origin.x) + surfaceX, Double(rect.origin.y) + surfaceY,
                Double(rect.size.width), Double(rect.size.height))
    }

    /// Keeps `child` (a descendant) visible only while this widget is on
    /// screen. Each time the pointer's hover is taken up to the window and
    /// back, GTK 4.8 restyles the CSS nodes of every visible widget in the
    /// window, including those on pages not shown. A list does that whenever
    /// it recycles the row under the pointer. The app's hidden lists and
    /// grid made each such frame of the show page restyle more than twice
    /// as many nodes (see docs/BENCHMARKS.md).
    public func showOnlyWhileMapped(_ child: Widget) {
        child.isVisible = isMapped
        onSignal("map") { child.isVisible = true }
        onSignal("unmap") { child.isVisible = false }
    }

    /// Binds a click or activation to a GAction such as "app.quit".
    public func setAction(_ detailedName: String) {
        gtk_actionable_set_detailed_action_name(OpaquePointer(widget), detailedName)
    }

    /// Binds a click to an action with a parameter, e.g. "app.set-played"
    /// with an episode's ID. The target goes first: GTK checks the pair as
    /// soon as the name is set, and a recycled row changes only the target.
    public func setAction(_ name: String, target: Variant) {
        gtk_actionable_set_action_target_value(OpaquePointer(widget), target.pointer)
        gtk_actionable_set_action_name(OpaquePointer(widget), name)
    }

    /// Unbinds the action and leaves the widget insensitive: while bound, GTK
    /// sets its sensitivity from the action's, over anything set here.
    public func disableAction() {
        gtk_actionable_set_action_name(OpaquePointer(widget), nil)
        isSensitive = false
    }

    /// Activates an action reachable from this widget ("app.seek-to", "win.…")
    /// with a parameter, as an actionable widget would.
    public func activateAction(_ name: String, parameter: Variant?) {
        gtk_widget_activate_action_variant(widget, name, parameter?.pointer)
    }

    /// The label assistive technologies read for this widget.
    public func setAccessibleLabel(_ label: String) {
        var value = GValue()
        g_value_init(&value, tc_type_string())
        defer { g_value_unset(&value) }
        g_value_set_string(&value, label)
        var properties = [GTK_ACCESSIBLE_PROPERTY_LABEL]
        withUnsafeMutablePointer(to: &value) { valuePointer in
            gtk_accessible_update_property_value(OpaquePointer(widget), 1, &properties, valuePointer)
        }
    }

    /// Calls `handler` after every frame of this widget's window with how
    /// long the frame's work took: from the frame clock's flush-events
    /// (queued input handled) or, when a frame has none, its before-paint,
    /// to its after-paint (laid out and drawn). Connected for the window's
    /// lifetime. The widget must be realized.
    public func onEveryFrame(_ handler: @escaping @MainActor (Duration) -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return }
        let frameClock = ObjectRef(clock, transfer: .none)
        let frame = FrameStart()
        frameClock.onSignal("flush-events") { frame.instant = .now }
        frameClock.onSignal("before-paint") { if frame.instant == nil { frame.instant = .now } }
        // The closure keeps `frameClock` (so the clock) alive: on purpose,
        // the window and its clock last until the process ends.
        frameClock.onSignal("after-paint") {
            guard let start = frame.instant else { return }
            frame.instant = nil
            handler(ContinuousClock.now - start)
            withExtendedLifetime(frameClock) {}
        }
    }

    /// Runs `handler` once, after the first frame that shows this widget has
    /// been painted. The widget must be realized (e.g. call from `map`).
    public func afterFirstPaint(_ handler: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return }
        let frameClock = ObjectRef(clock, transfer: .none)
        var connection: SignalConnection?
        connection = frameClock.onSignal("after-paint") {
            connection?.disconnect()
            connection = nil
            handler()
            withExtendedLifetime(frameClock) {}
        }
    }
}

/// GTK enum and flag values Swift imports as structs; kept here so callers
/// do not need to import the C module.
extension Widget {
    public enum Orientation {
        case horizontal, vertical
        var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
    }
}

/// When the frame being measured by `onEveryFrame` started.
@MainActor
private final class FrameStart {
    var instant: ContinuousClock.Instant?
}
