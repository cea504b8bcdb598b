import CGtk

/// AdwPreferencesWindow: a first page of groups of rows, and more pages
/// (`PreferencesPage`), with a switcher between them in the header.
@MainActor
public final class PreferencesWindow: Widget {
    private let page: UnsafeMutablePointer<AdwPreferencesPage>

    public init(transientFor parent: ApplicationWindow?) {
        page = UnsafeMutableRawPointer(adw_preferences_page_new()).assumingMemoryBound(to: AdwPreferencesPage.self)
        super.init(adw_preferences_window_new(), transfer: .none)
        adw_preferences_window_add(pointer(), page)
        if let parent { gtk_window_set_transient_for(pointer(as: GtkWindow.self), parent.pointer(as: GtkWindow.self)) }
        gtk_window_set_modal(pointer(as: GtkWindow.self), 1)
    }

    public func add(_ group: PreferencesGroup) { adw_preferences_page_add(page, group.pointer()) }

    /// Names the first page in the switcher, once there are others.
    public func setFirstPage(title: String, iconName: String) {
        adw_preferences_page_set_title(page, title)
        adw_preferences_page_set_icon_name(page, iconName)
    }

    public func add(_ other: PreferencesPage) { adw_preferences_window_add(pointer(), other.pointer()) }

    public func show(_ other: PreferencesPage) { adw_preferences_window_set_visible_page(pointer(), other.pointer()) }

    public func present() { gtk_window_present(pointer(as: GtkWindow.self)) }

    /// Shows `title` as plain text in a toast over the window's page.
    public func showToast(_ title: String) {
        let escaped = g_markup_escape_text(title, -1)!
        defer { g_free(escaped) }
        adw_preferences_window_add_toast(pointer(), adw_toast_new(escaped))
    }

    /// Called when the window is asked to close; return true to keep it open.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
        onQuerySignal("close-request", handler)
    }
}

/// AdwPreferencesPage: one page of a `PreferencesWindow`, named in its switcher.
@MainActor
public final class PreferencesPage: Widget {
    public init(title: String, iconName: String) {
        super.init(adw_preferences_page_new(), transfer: .full)
        adw_preferences_page_set_title(pointer(), title)
        adw_preferences_page_set_icon_name(pointer(), iconName)
    }

    public func add(_ group: PreferencesGroup) { adw_preferences_page_add(pointer(), group.pointer()) }
}

/// AdwPreferencesGroup: a titled list of rows.
@MainActor
public final class PreferencesGroup: Widget {
    public init(title: String) {
        super.init(adw_preferences_group_new(), transfer: .full)
        adw_preferences_group_set_title(pointer(), title)
    }

    /// A line under the title saying what the group is for.
    public func setDescription(_ text: String) { adw_preferences_group_set_description(pointer(), text) }

    public func add(_ row: Widget) { adw_preferences_group_add(pointer(), row.widget) }
}

/// AdwActionRow: a title, a subtitle and a control at its end; the control
/// is also what activating the row activates.
@MainActor
public final class ActionRow: Widget {
    public init(title: String, subtitle: String = "", control: Widget) {
        super.init(adw_action_row_new(), transfer: .full)
        adw_preferences_row_set_title(pointer(), title)
        if !subtitle.isEmpty { adw_action_row_set_subtitle(pointer(), subtitle) }
        control.align(horizontal: .fill, vertical: .center)
        adw_action_row_add_suffix(pointer(), control.widget)
        adw_action_row_set_activatable_widget(pointer(), control.widget)
        control.setAccessibleLabel(title)
    }
}

/// GtkSpinButton over a numeric range.
@MainActor
public final class SpinButton: Widget {
    public init(range: ClosedRange<Double>, step: Double, digits: UInt32 = 0) {
        super.init(gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step), transfer: .full)
        gtk_spin_button_set_digits(opaque, digits)
        gtk_spin_button_set_numeric(opaque, 1)
    }

    public var value: Double {
        get { gtk_spin_button_get_value(opaque) }
        set { gtk_spin_button_set_value(opaque, newValue) }
    }

    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) { onSignal("value-changed", handler) }
}

/// GtkSwitch.
@MainActor
public final class Switch: Widget {
    public init() { super.init(gtk_switch_new(), transfer: .full) }

    public var isOn: Bool {
        get { gtk_switch_get_active(opaque) != 0 }
        set { gtk_switch_set_active(opaque, newValue ? 1 : 0) }
    }

    public func onToggled(_ handler: @escaping @MainActor () -> Void) {
        onSignal("notify::active") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}
