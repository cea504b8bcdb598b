import CGtk

/// A GtkShortcutController of key triggers that activate actions.
///
/// Application accelerators (`Application.setAccelerators`) are handled
/// before the focused widget sees the key. Shortcuts here run in the bubble
/// phase instead: only when the focused widget does not use the key, so
/// Space still presses a focused button and arrow keys still move through a
/// grid.
@MainActor
public final class ShortcutController: EventController {
    public init() {
        super.init(gtk_shortcut_controller_new(), transfer: .full)
        gtk_event_controller_set_propagation_phase(opaque, GTK_PHASE_BUBBLE)
    }

    /// `trigger` in GTK's accelerator syntax ("space", "<Control>n"); `action`
    /// a detailed action name ("app.play-pause").
    public func add(trigger: String, action: String) {
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), gtk_named_action_new(action))
        gtk_shortcut_controller_add_shortcut(opaque, shortcut)
    }
}
