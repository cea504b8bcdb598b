import CGtk

/// A GtkShortcutController of key triggers that activate actions, for the
/// widget it is added to and everything inside it.
///
/// Application accelerators (`Application.setAccelerators`) are handled
/// before any widget sees the key, everywhere in the window. A controller
/// here decides per part of the window: in the capture phase it takes the
/// key before the focused widget inside it does; in the bubble phase only
/// when the focused widget has no use for it (arrow keys still move through
/// a grid).
@MainActor
public final class ShortcutController: EventController {
    public enum Phase { case capture, bubble }

    public init(phase: Phase) {
        super.init(gtk_shortcut_controller_new(), transfer: .full)
        let propagation: GtkPropagationPhase = phase == .capture ? GTK_PHASE_CAPTURE : GTK_PHASE_BUBBLE
        gtk_event_controller_set_propagation_phase(opaque, propagation)
    }

    /// `trigger` in GTK's accelerator syntax ("space", "<Control>n"); `action`
    /// a detailed action name ("app.play-pause").
    public func add(trigger: String, action: String) {
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), gtk_named_action_new(action))
        gtk_shortcut_controller_add_shortcut(opaque, shortcut)
    }

    /// `trigger` runs `handler`, which says whether it took the key: when it
    /// returns false GTK carries on as if no shortcut had matched, so the
    /// focused widget gets the key (a space typed into an entry).
    public func add(trigger: String, _ handler: @escaping @MainActor () -> Bool) {
        // Released by the action's destroy notify, when the shortcut goes with its controller.
        let box = Unmanaged.passRetained(SignalHandlerBox<@MainActor () -> Bool>(handler)).toOpaque()
        let action = gtk_callback_action_new({ _, _, userData in
            let handler = SignalHandlerBox<@MainActor () -> Bool>.from(userData).handler
            return MainActor.assumeIsolated { handler() } ? 1 : 0
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
        })
        gtk_shortcut_controller_add_shortcut(opaque, gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), action))
    }
}
