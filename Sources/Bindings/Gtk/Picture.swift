import CGtk

/// GtkPicture showing a video: the paintable gets all the picture's room
/// and letterboxes itself (it draws its bars after the frame, so nothing is
/// drawn under the frame; see `video-paintable.c`).
@MainActor
public final class Picture: Widget {
    public init(_ paintable: VideoPaintable) {
        super.init(gtk_picture_new_for_paintable(paintable.opaque), transfer: .full)
        gtk_picture_set_can_shrink(opaque, 1)
        gtk_picture_set_content_fit(opaque, GTK_CONTENT_FIT_FILL)
    }
}
