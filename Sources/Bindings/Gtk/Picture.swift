import CGtk

/// GtkPicture: draws a paintable (a video) letterboxed to its aspect ratio.
@MainActor
public final class Picture: Widget {
    public init(_ paintable: VideoPaintable) {
        super.init(gtk_picture_new_for_paintable(paintable.opaque), transfer: .full)
        // Any size the window gives it; the frame is scaled to fit with bars
        // around it (GtkPicture's default content fit, "contain").
        gtk_picture_set_can_shrink(opaque, 1)
    }
}
