import CGLib
import CGStreamer
import CTrackcastVideo

/// A pipeline's video output as a GdkPaintable: give `sink` to playbin as its
/// video sink and show the paintable in any number of `Picture`s at once
/// (the main window and picture-in-picture share one, so there is one decoder).
///
/// The streaming thread only swaps the newest frame into a slot and schedules
/// one main-loop callback if none is pending; textures are made and shown on
/// the main thread. A frame the main thread had no time for is replaced by
/// the next (counted in `framesDropped`), never queued. Frames keep their
/// pixel aspect ratio: the intrinsic size is the display size.
@MainActor
public final class VideoPaintable: ObjectRef {
    /// The sink (a converter and scaler into an appsink) to plug into playbin's `video-sink`.
    public let sink: Element
    /// The filter to plug into playbin's `video-filter`: 10-bit and 4:4:4
    /// frames made 8-bit 4:2:0, and frames bigger than drawn (converted on
    /// the CPU) scaled down, in one pass before anything converts them.
    public let filter: Element
    private var paintable: OpaquePointer { opaque }

    /// With `convertsOnGPU`, frames are converted from YUV and scaled by a
    /// shader into GL textures (for GTK's GL renderer); without it, or when
    /// no GL context can be made, on the CPU into memory textures. Make it
    /// after GTK is initialised. `drawnWithCairo` (GTK's cairo renderer)
    /// makes CPU frames cairo images, which it copies without converting.
    public init(convertsOnGPU: Bool, drawnWithCairo: Bool = false) throws(GStreamerError) {
        GStreamer.initialize()
        let made = tc_video_paintable_new(convertsOnGPU ? 1 : 0, drawnWithCairo ? 1 : 0)!
        guard let appsink = tc_video_paintable_get_sink(made) else {
            g_object_unref(gpointer(made))
            throw .missingElement("appsink")
        }
        sink = Element(appsink, transfer: .none)
        filter = Element(tc_video_paintable_get_filter(made), transfer: .none)
        super.init(made, transfer: .full)
    }

    /// True when frames are converted on the GPU.
    public var convertsOnGPU: Bool { tc_video_paintable_converts_on_gpu(paintable) != 0 }
    /// Why frames are not converted on the GPU although that was asked for; nil otherwise.
    public var whyNotOnGPU: String? { tc_video_paintable_why_not_gpu(paintable).map { String(cString: $0) } }

    /// Shows black until the next frame: after stop, or when a new item loads.
    public func clear() { tc_video_paintable_clear(paintable) }

    /// Frames the sink handed over.
    public var framesReceived: Int { Int(tc_video_paintable_frames_received(paintable)) }
    /// Frames replaced by a newer one before the main thread took them.
    public var framesDropped: Int { Int(tc_video_paintable_frames_dropped(paintable)) }
    /// Frames drawn at least once by some widget.
    public var framesPainted: Int { Int(tc_video_paintable_frames_painted(paintable)) }

    /// The frame being shown: its stored size and pixel aspect ratio; nil when black.
    public var frame: (width: Int, height: Int, pixelAspect: Double)? {
        let width = Int(tc_video_paintable_frame_width(paintable))
        guard width > 0 else { return nil }
        return (width, Int(tc_video_paintable_frame_height(paintable)), tc_video_paintable_pixel_aspect(paintable))
    }

    /// The size it asks to be drawn at (pixel aspect applied); zero when black.
    public var intrinsicSize: (width: Int, height: Int) {
        (Int(gdk_paintable_get_intrinsic_width(paintable)), Int(gdk_paintable_get_intrinsic_height(paintable)))
    }
}
