import CGtk

/// GtkImage: an icon from the theme, or a texture (artwork) at a fixed size.
@MainActor
public final class Image: Widget {
    public init(iconName: String, pixelSize: Int32) {
        super.init(gtk_image_new_from_icon_name(iconName), transfer: .full)
        gtk_image_set_pixel_size(opaque, pixelSize)
    }

    public func setIconName(_ name: String) { gtk_image_set_from_icon_name(opaque, name) }

    public func setTexture(_ texture: Texture) { gtk_image_set_from_paintable(opaque, texture.pointer) }
}
