import CGtk

/// GtkButton.
@MainActor
public final class Button: Widget {
    public init(label: String, action: String? = nil) {
        super.init(gtk_button_new_with_mnemonic(label), transfer: .full)
        if let action { setAction(action) }
    }

    public init(iconName: String, tooltip: String, action: String? = nil) {
        super.init(gtk_button_new_from_icon_name(iconName), transfer: .full)
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
        if let action { setAction(action) }
    }

    /// Changes the icon and what assistive technologies and the tooltip
    /// call the button, e.g. between play and pause.
    public func setIcon(_ iconName: String, tooltip: String) {
        gtk_button_set_icon_name(pointer(as: GtkButton.self), iconName)
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
    }

    /// A label with a mnemonic ("_Subscribe"), e.g. as the button's state changes.
    public func setLabel(_ label: String) { gtk_button_set_label(pointer(as: GtkButton.self), label) }

    /// For buttons that are not bound to an action.
    public func onClicked(_ handler: @escaping @MainActor () -> Void) { onSignal("clicked", handler) }
}

/// GtkMenuButton showing a menu model, e.g. the primary menu.
@MainActor
public final class MenuButton: Widget {
    public init(iconName: String, tooltip: String, menu: Menu) {
        super.init(gtk_menu_button_new(), transfer: .full)
        let button = OpaquePointer(widget)
        gtk_menu_button_set_icon_name(button, iconName)
        gtk_menu_button_set_menu_model(button, menu.pointer(as: GMenuModel.self))
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
    }

    /// A button opening `popover`, e.g. a group of settings.
    public init(iconName: String, tooltip: String, popover: Popover) {
        super.init(gtk_menu_button_new(), transfer: .full)
        let button = OpaquePointer(widget)
        gtk_menu_button_set_icon_name(button, iconName)
        gtk_menu_button_set_popover(button, popover.widget)
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
    }

    /// A button showing text, e.g. the current playback speed.
    public init(label: String, tooltip: String, menu: Menu) {
        super.init(gtk_menu_button_new(), transfer: .full)
        let button = OpaquePointer(widget)
        gtk_menu_button_set_label(button, label)
        gtk_menu_button_set_menu_model(button, menu.pointer(as: GMenuModel.self))
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
    }

    public func setLabel(_ label: String) { gtk_menu_button_set_label(OpaquePointer(widget), label) }

    /// Replaces the menu, e.g. with one whose items name the current show.
    public func setMenu(_ menu: Menu) {
        gtk_menu_button_set_menu_model(OpaquePointer(widget), menu.pointer(as: GMenuModel.self))
    }
}

/// GtkPopover holding one widget, opened by a `MenuButton`.
@MainActor
public final class Popover: Widget {
    public init(child: Widget) {
        super.init(gtk_popover_new(), transfer: .full)
        gtk_popover_set_child(pointer(), child.widget)
    }

    /// Called each time the popover opens.
    public func onShow(_ handler: @escaping @MainActor () -> Void) { onSignal("show", handler) }
}
