import CGtk
import CTrackcastVideo

/// GtkOverlay: a main child with others drawn over it (video controls, a spinner).
@MainActor
public final class Overlay: Widget {
    public init(child: Widget) {
        super.init(gtk_overlay_new(), transfer: .full)
        gtk_overlay_set_child(opaque, child.widget)
    }

    public func addOverlay(_ widget: Widget) { gtk_overlay_add_overlay(opaque, widget.widget) }
}

/// GtkRevealer: shows and hides its child with a fade, e.g. controls over a video.
@MainActor
public final class Revealer: Widget {
    public init(child: Widget) {
        super.init(gtk_revealer_new(), transfer: .full)
        gtk_revealer_set_transition_type(opaque, GTK_REVEALER_TRANSITION_TYPE_CROSSFADE)
        gtk_revealer_set_child(opaque, child.widget)
    }

    public var isRevealed: Bool {
        get { gtk_revealer_get_reveal_child(opaque) != 0 }
        set { gtk_revealer_set_reveal_child(opaque, newValue ? 1 : 0) }
    }
}

/// A bin that, under GTK's cairo renderer, draws its child from a recording
/// made only when the child changes: a frame that redraws something else
/// (the video beside it) then skips the child with one bounds check instead
/// of replaying each of its nodes (`recorded-bin.c`).
@MainActor
public final class RecordedBin: Widget {
    public init(child: Widget) {
        super.init(tc_recorded_bin_new(child.widget), transfer: .full)
    }
}

/// GtkWindowHandle: dragging anywhere inside moves the window (an undecorated one has no title bar).
@MainActor
public final class WindowHandle: Widget {
    public init(child: Widget) {
        super.init(gtk_window_handle_new(), transfer: .full)
        gtk_window_handle_set_child(opaque, child.widget)
    }
}

extension Widget {
    /// The pointer's look over this widget: "none" hides it, nil restores the default.
    public func setCursor(named name: String?) { gtk_widget_set_cursor_from_name(widget, name) }
}
