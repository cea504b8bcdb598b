import CGtk

/// AdwMessageDialog: a heading, a body, optional extra content (an entry)
/// and responses. The handler gets the chosen response's ID; closing with
/// Escape answers the close response.
@MainActor
public final class MessageDialog: Widget {
    public enum Appearance { case normal, suggested, destructive }

    public init(transientFor parent: ApplicationWindow?, heading: String, body: String) {
        super.init(adw_message_dialog_new(parent?.pointer(as: GtkWindow.self), heading, body), transfer: .none)
    }

    private var dialog: UnsafeMutablePointer<AdwMessageDialog> { pointer() }

    public func addResponse(_ id: String, label: String, appearance: Appearance = .normal) {
        adw_message_dialog_add_response(dialog, id, label)
        switch appearance {
        case .normal: break
        case .suggested: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_SUGGESTED)
        case .destructive: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_DESTRUCTIVE)
        }
    }

    public func setResponseEnabled(_ id: String, _ enabled: Bool) {
        adw_message_dialog_set_response_enabled(dialog, id, enabled ? 1 : 0)
    }

    /// The response Enter chooses, and the one Escape chooses.
    public func setDefaultResponse(_ id: String, closeResponse: String) {
        adw_message_dialog_set_default_response(dialog, id)
        adw_message_dialog_set_close_response(dialog, closeResponse)
    }

    public func setExtraChild(_ child: Widget) { adw_message_dialog_set_extra_child(dialog, child.widget) }

    public func onResponse(_ handler: @escaping @MainActor (String) -> Void) {
        onStringSignal("response", handler)
    }

    public func present() { gtk_window_present(pointer(as: GtkWindow.self)) }
    public func close() { gtk_window_close(pointer(as: GtkWindow.self)) }
}
