import CGLib
import CGtk

/// GtkEventControllerMotion: the pointer moving over, entering or leaving a widget.
@MainActor
public final class MotionController: EventController {
    public typealias MotionHandler = @MainActor (Double, Double) -> Void

    public init() { super.init(gtk_event_controller_motion_new(), transfer: .full) }

    /// Every pointer movement over the widget, with its position.
    public func onMotion(_ handler: @escaping MotionHandler) {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, userData in
            let handler = SignalHandlerBox<MotionHandler>.from(userData).handler
            MainActor.assumeIsolated { handler(x, y) }
        }
        connect(signal: "motion", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<MotionHandler>(handler))
    }

    public func onLeave(_ handler: @escaping @MainActor () -> Void) { onSignal("leave", handler) }
}

/// GtkGestureClick: presses of the primary button, with their count (2 = double-click).
@MainActor
public final class ClickGesture: EventController {
    public typealias PressHandler = @MainActor (Int32) -> Void

    public init() { super.init(gtk_gesture_click_new(), transfer: .full) }

    public func onPressed(_ handler: @escaping PressHandler) {
        let trampoline: @convention(c) (gpointer?, gint, Double, Double, gpointer?) -> Void = { _, count, _, _, userData in
            let handler = SignalHandlerBox<PressHandler>.from(userData).handler
            MainActor.assumeIsolated { handler(count) }
        }
        connect(signal: "pressed", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<PressHandler>(handler))
    }
}
