import CGLib
import CGStreamer
import CGtk
import CTrackcastVideo
import Dispatch
import Foundation

/// Why a frame could not be captured.
public enum FrameCaptureError: Error, Equatable {
    /// Nothing is on screen.
    case noFrame
    /// GStreamer could not encode it.
    case conversion(String)
}

extension VideoPaintable {
    /// The frame on screen as a PNG of `width`×`height` pixels (the video's
    /// own size; the frame may have been scaled to the window on its way
    /// here), encoded off the main thread.
    public func currentFrameAsPNG(width: Int, height: Int) async throws(FrameCaptureError) -> Data {
        guard let sample = tc_video_paintable_dup_shown_sample(opaque) else { throw .noFrame }
        let box = SampleBox(sample)
        let result: Result<Data, FrameCaptureError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: box.png(width: width, height: height))
            }
        }
        return try result.get()
    }
}

/// One reference to a GstSample, handed to the encoding thread.
/// `@unchecked Sendable`: a GstSample and its buffer are not written after
/// the appsink made them, and their reference counts are atomic; the box
/// holds its own reference and is used by one thread at a time.
private final class SampleBox: @unchecked Sendable {
    private let sample: OpaquePointer

    init(_ sample: OpaquePointer) { self.sample = sample }
    deinit { gst_sample_unref(sample) }

    func png(width: Int, height: Int) -> Result<Data, FrameCaptureError> {
        let size = width > 0 && height > 0 && width <= 16_384 && height <= 16_384 ? ",width=\(width),height=\(height)" : ""
        guard let caps = gst_caps_from_string("image/png" + size) else { return .failure(.conversion("no caps")) }
        defer { gst_caps_unref(caps) }
        var error: UnsafeMutablePointer<GError>?
        guard let converted = gst_video_convert_sample(sample, caps, 10_000_000_000, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            return .failure(.conversion(message))
        }
        defer { gst_sample_unref(converted) }
        guard let buffer = gst_sample_get_buffer(converted) else { return .failure(.conversion("no buffer")) }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return .failure(.conversion("cannot map")) }
        defer { gst_buffer_unmap(buffer, &map) }
        return .success(Data(bytes: map.data, count: Int(map.size)))
    }
}

/// The clipboard of a widget's display.
@MainActor
public enum Clipboard {
    /// Puts `png` on the clipboard as an image (GTK offers it as image/png and other formats).
    public static func setImage(png: Data, for widget: Widget) -> Bool {
        let bytes = png.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_texture_new_from_bytes(bytes, nil) else { return false }
        defer { g_object_unref(gpointer(texture)) }
        gdk_clipboard_set_texture(gtk_widget_get_clipboard(widget.widget), texture)
        return true
    }
}
