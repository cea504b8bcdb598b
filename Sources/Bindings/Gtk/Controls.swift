import CGtk

/// GtkButton.
@MainActor
public final class Button: Widget {
    public init(label: String, action: String? = nil) {
        super.init(gtk_button_new_with_mnemonic(label), transfer: .full)
        if let action { setAction(action) }
    }

    /// A button showing `child`, e.g. a few lines of text.
    public init(child: Widget) {
        super.init(gtk_button_new(), transfer: .full)
        gtk_button_set_child(pointer(as: GtkButton.self), child.widget)
    }

    public init(iconName: String, tooltip: String, action: String? = nil) {
        super.init(gtk_button_new_from_icon_name(iconName), transfer: .full)
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
        if let action { setAction(action) }
    }

    /// Changes the icon and what assistive technologies and the tooltip
    /// call the button, e.g. between play and pause.
    /// Unchanged values are not set again: a list's rows call this on every
    /// bind while scrolling, and setting a tooltip asks the X server where
    /// the pointer is (a round trip per call).
    public func setIcon(_ iconName: String, tooltip: String) {
        let button = pointer(as: GtkButton.self)
        if gtk_button_get_icon_name(button).map({ String(cString: $0) }) != iconName {
            gtk_button_set_icon_name(button, iconName)
        }
        guard gtk_widget_get_tooltip_text(widget).map({ String(cString: $0) }) != tooltip else { return }
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

    /// A button whose menu `makeMenu` makes only when it opens: setting a
    /// menu builds a popover, too much to do for every row a scrolling list
    /// binds. `forgetMenu()` (on rebinding) makes the next opening ask again.
    public init(iconName: String, tooltip: String, makeMenu: @escaping @MainActor () -> Menu) {
        super.init(gtk_menu_button_new(), transfer: .full)
        let button = OpaquePointer(widget)
        gtk_menu_button_set_icon_name(button, iconName)
        gtk_widget_set_tooltip_text(widget, tooltip)
        setAccessibleLabel(tooltip)
        // Released by GTK's destroy notify when the button goes.
        let box = Unmanaged.passRetained(SignalHandlerBox<@MainActor () -> Menu>(makeMenu)).toOpaque()
        gtk_menu_button_set_create_popup_func(button, { button, userData in
            let makeMenu = SignalHandlerBox<@MainActor () -> Menu>.from(userData).handler
            MainActor.assumeIsolated {
                // Kept alive through the call: a temporary's last use is taking its
                // pointer, and the GMenu was freed before GTK could take its reference.
                let menu = makeMenu()
                withExtendedLifetime(menu) {
                    gtk_menu_button_set_menu_model(button, menu.pointer(as: GMenuModel.self))
                }
            }
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
        })
    }

    /// Drops the menu made for the last opening (see `init(iconName:tooltip:makeMenu:)`).
    public func forgetMenu() {
        guard gtk_menu_button_get_menu_model(OpaquePointer(widget)) != nil else { return }
        gtk_menu_button_set_menu_model(OpaquePointer(widget), nil)
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
