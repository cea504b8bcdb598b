import CGLib
import CGtk
import Foundation

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

    /// Decodes `bytes` with gdk-pixbuf's loader named `loader` ("png",
    /// "jpeg", "webp") and no other, scaled to fit `size`×`size` pixels
    /// keeping its aspect ratio (a 3000-pixel podcast cover would otherwise
    /// take 36 MB as a texture). An image whose decoder finds more than
    /// `maxPixels` is refused before its pixels are allocated: the loader
    /// reports the size it read (`size-prepared`) and is told to stop.
    ///
    /// The caller decides the loader from the bytes themselves: left to
    /// guess, gdk-pixbuf would try every loader installed (TIFF, XPM, ANI,
    /// SVG…) on whatever a server sent.
    ///
    /// Blocking decoding; call it off the main thread.
    public static func decode(_ bytes: Data, loader type: String, fitting size: Int32, maxPixels: Int) throws -> Texture {
        let loader = try GLibError.check { error in gdk_pixbuf_loader_new_with_type(type, error) }
        guard let loader else { throw GLibError(domain: "trackcast-texture", code: 0, message: "no \(type) loader") }
        defer { g_object_unref(gpointer(loader)) }
        let limit = SizeLimit(fit: size, maxPixels: maxPixels)
        let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, gpointer?) -> Void = {
            loader, width, height, data in
            let limit = Unmanaged<SizeLimit>.fromOpaque(data!).takeUnretainedValue()
            let (width, height) = limit.scaled(width: width, height: height)
            // 0 × 0 makes the PNG and JPEG loaders fail before they allocate.
            gdk_pixbuf_loader_set_size(loader, width, height)
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            Unmanaged<SizeLimit>.fromOpaque(data!).release()
        }
        g_signal_connect_data(gpointer(loader), "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self),
                              Unmanaged.passRetained(limit).toOpaque(), release, GConnectFlags(0))
        let written = Result { () throws -> Void in
            _ = try bytes.withUnsafeBytes { raw in
                try GLibError.check { error in
                    gdk_pixbuf_loader_write(loader, raw.baseAddress?.assumingMemoryBound(to: guchar.self), gsize(raw.count), error)
                }
            }
        }
        // Closed in every case: a loader left open warns when finalized.
        let closed = Result { () throws -> Void in _ = try GLibError.check { error in gdk_pixbuf_loader_close(loader, error) } }
        if let refused = limit.refused {
            throw GLibError(domain: "trackcast-texture", code: 1,
                            message: "the image is \(refused.width)×\(refused.height) pixels, more than \(maxPixels)")
        }
        try written.get()
        try closed.get()
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw GLibError(domain: "trackcast-texture", code: 0, message: "no image in the \(type) data")
        }
        // The loader owns the pixbuf; the texture takes a reference of its own.
        return Texture(taking: gdk_texture_new_for_pixbuf(pixbuf))
    }

    /// `decode` on the global executor, never on the caller's thread.
    public static func load(_ bytes: Data, loader type: String, fitting size: Int32, maxPixels: Int) async throws -> Texture {
        try await Task.detached(priority: .utility) {
            try decode(bytes, loader: type, fitting: size, maxPixels: maxPixels)
        }.value
    }
}

/// What `Texture.decode`'s size-prepared handler needs, and what it found.
/// Not Sendable, and need not be: the handler runs inside
/// `gdk_pixbuf_loader_write` and `close`, on the decoding thread.
private final class SizeLimit {
    let fit: Int32
    let maxPixels: Int
    private(set) var refused: (width: Int32, height: Int32)?

    init(fit: Int32, maxPixels: Int) {
        self.fit = fit
        self.maxPixels = maxPixels
    }

    /// The size to decode an image of `width`×`height` at: fitting `fit`
    /// both ways, as gdk_pixbuf_new_from_file_at_scale does; 0 × 0 (stop) if
    /// it has too many pixels or none.
    func scaled(width: Int32, height: Int32) -> (Int32, Int32) {
        guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
            refused = (width, height)
            return (0, 0)
        }
        let scale = Double(fit) / Double(max(width, height))
        return (max(1, Int32((Double(width) * scale).rounded())), max(1, Int32((Double(height) * scale).rounded())))
    }
}
