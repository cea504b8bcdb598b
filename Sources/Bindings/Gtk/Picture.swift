import CGtk

/// GtkPicture: a video's paintable or an image's texture, given all the
/// picture's room.
@MainActor
public final class Picture: Widget {
    /// A video: the paintable letterboxes itself (it draws its bars after
    /// the frame, so nothing is drawn under the frame; see
    /// `video-paintable.c`).
    public init(_ paintable: VideoPaintable) {
        super.init(gtk_picture_new_for_paintable(paintable.opaque), transfer: .full)
        gtk_picture_set_can_shrink(opaque, 1)
        gtk_picture_set_content_fit(opaque, GTK_CONTENT_FIT_FILL)
    }

    /// An image, shown whole at its aspect in whatever room there is.
    public init() {
        super.init(gtk_picture_new(), transfer: .full)
        gtk_picture_set_can_shrink(opaque, 1)
        gtk_picture_set_content_fit(opaque, GTK_CONTENT_FIT_CONTAIN)
    }

    /// Shows `texture`, or nothing.
    public func setTexture(_ texture: Texture?) {
        gtk_picture_set_paintable(opaque, texture?.pointer)
    }
}
