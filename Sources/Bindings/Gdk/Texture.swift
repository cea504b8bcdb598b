import CGLib
import CGtk

/// An image decoded into a GdkTexture, ready to show in any number of
/// widgets.
///
/// `@unchecked Sendable` because a GdkTexture is immutable once made and its
/// reference count is atomic: GTK documents textures as safe to create on any
/// thread and hand to the main one, which is the point of this type.
public final class Texture: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { g_object_unref(gpointer(pointer)) }

    public var width: Int { Int(gdk_texture_get_width(pointer)) }
    public var height: Int { Int(gdk_texture_get_height(pointer)) }

    /// Decodes an image file (PNG, JPEG, …), scaled to fit `size`×`size`
    /// pixels keeping its aspect ratio: a 3000-pixel podcast cover would
    /// otherwise take 36 MB as a texture.
    ///
    /// Blocking file work and decoding; call it off the main thread, e.g.
    /// `Texture.load(path:fitting:)`.
    public static func decode(path: String, fitting size: Int32) throws -> Texture {
        let pixbuf = try GLibError.check { error in
            gdk_pixbuf_new_from_file_at_scale(path, size, size, 1, error)
        }
        guard let pixbuf else { throw GLibError(domain: "trackcast-texture", code: 0, message: "no image in \(path)") }
        defer { g_object_unref(gpointer(pixbuf)) }
        return Texture(taking: gdk_texture_new_for_pixbuf(pixbuf))
    }

    /// Decodes on the global executor, never on the caller's thread.
    public static func load(path: String, fitting size: Int32) async throws -> Texture {
        try await Task.detached(priority: .utility) { try decode(path: path, fitting: size) }.value
    }
}
