import Bindings
import CGLib
import CGStreamer
import CTrackcastVideo
import Testing

/// The frame reducer's scaling (`Sources/CTrackcastVideo/frame-reducer.c`):
/// a frame bigger than the drawn size comes out BGRA at that size, each
/// output column made from the input columns under it. The input is a grey
/// sawtooth steep enough (7 luma levels a column) that a column made from
/// input columns even one off is 8 grey levels from what its own give;
/// the colour-bar tests' bars are too wide to see that.
@Suite("Frame reducer: scaled frames")
struct FrameReducerTests {
    init() { GStreamer.initialize() }

    static let inputWidth = 1280, inputHeight = 720

    /// The luma of input column `x`: a sawtooth over the limited range, the same on every row.
    static func luma(_ x: Int) -> Int { 16 + (x * 7) % 220 }

    /// A limited-range luma's grey in BGRA with neutral chroma: (Y − 16) × 255 / 219,
    /// the same for BT.601 and BT.709 (the matrix only weighs chroma).
    static func grey(_ luma: Int) -> Int { min(255, max(0, Int((Double(luma - 16) * 255 / 219).rounded()))) }

    /// A drawn size, and the frame size the reducer fits 1280 × 720 into it
    /// (the display aspect kept, each side rounded).
    struct Scaling: Sendable, CustomTestStringConvertible {
        let drawnWidth: Int, drawnHeight: Int, width: Int, height: Int
        var testDescription: String { "\(drawnWidth) × \(drawnHeight) drawn: \(width) × \(height)" }
    }

    /// One input frame through appsrc → reducer → appsink; the BGRA frame
    /// that comes out, as rows of `width` pixels (B, G, R, A bytes).
    private func reduce(drawnWidth: Int, drawnHeight: Int) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let pipeline = try #require(gst_pipeline_new("reducer-test"))
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
        }
        let source = try #require(gst_element_factory_make("appsrc", nil))
        let reducer = try #require(tc_frame_reducer_new() as UnsafeMutablePointer<GstElement>?)
        let sink = try #require(gst_element_factory_make("appsink", nil))
        let bin = UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self)
        for element in [source, reducer, sink] { try #require(gst_bin_add(bin, element) != 0) }
        try #require(gst_element_link(source, reducer) != 0 && gst_element_link(reducer, sink) != 0)
        tc_frame_reducer_set_drawn_size(reducer, Int32(drawnWidth), Int32(drawnHeight))

        let appSource = UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstAppSrc.self)
        let appSink = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self)
        let inputCaps = gst_caps_from_string("video/x-raw,format=I420,width=\(Self.inputWidth),height=\(Self.inputHeight),framerate=30/1")
        gst_app_src_set_caps(appSource, inputCaps)
        gst_caps_unref(inputCaps)
        let outputCaps = gst_caps_from_string("video/x-raw,format=BGRA")
        gst_app_sink_set_caps(appSink, outputCaps)
        gst_caps_unref(outputCaps)

        // I420 at 1280 × 720 has no row padding: Y, then U and V of 640 × 360.
        let lumaSize = Self.inputWidth * Self.inputHeight, chromaSize = lumaSize / 4
        let buffer = try #require(gst_buffer_new_allocate(nil, gsize(lumaSize + 2 * chromaSize), nil))
        var map = GstMapInfo()
        try #require(gst_buffer_map(buffer, &map, GST_MAP_WRITE) != 0)
        for y in 0..<Self.inputHeight {
            for x in 0..<Self.inputWidth { map.data[y * Self.inputWidth + x] = UInt8(Self.luma(x)) }
        }
        for index in lumaSize..<(lumaSize + 2 * chromaSize) { map.data[index] = 128 }
        gst_buffer_unmap(buffer, &map)

        try #require(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE)
        try #require(gst_app_src_push_buffer(appSource, buffer) == GST_FLOW_OK)
        _ = gst_app_src_end_of_stream(appSource)
        // 20 s bounds a stuck pipeline, not a timing assert: the frame comes or the test fails.
        let sample = try #require(gst_app_sink_try_pull_sample(appSink, 20_000_000_000),
                                  "no frame came out: \(busError(pipeline) ?? "no error on the bus")")
        defer { gst_sample_unref(sample) }

        let caps = try #require(gst_sample_get_caps(sample))
        #expect(String(cString: gst_structure_get_string(gst_caps_get_structure(caps, 0), "format")) == "BGRA")
        var info = GstVideoInfo()
        try #require(gst_video_info_from_caps(&info, caps) != 0)
        var frame = GstVideoFrame()
        try #require(gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ) != 0)
        defer { gst_video_frame_unmap(&frame) }
        let width = Int(info.width), height = Int(info.height), stride = Int(frame.info.stride.0)
        let data = try #require(frame.data.0).assumingMemoryBound(to: UInt8.self)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for byte in 0..<(width * 4) { pixels[(y * width) * 4 + byte] = data[y * stride + byte] }
        }
        return (width, height, pixels)
    }

    private func busError(_ pipeline: UnsafeMutablePointer<GstElement>) -> String? {
        guard let bus = gst_element_get_bus(pipeline) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        guard let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { gst_message_unref(message) }
        var error: UnsafeMutablePointer<GError>?
        gst_message_parse_error(message, &error, nil)
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) }
    }

    /// 640 × 360 is 2 × 2 boxes alone; 946 × 532 resamples 1280 columns
    /// (ratio 1.35, a last partial group of four); 500 × 281 resamples the
    /// 640 averages of 2 × 2 boxes (ratio 2.56 of the input).
    @Test("every output column is the input's ramp at its centre, or between its columns' values across a step", arguments: [
        Scaling(drawnWidth: 640, drawnHeight: 360, width: 640, height: 360),
        Scaling(drawnWidth: 946, drawnHeight: 532, width: 946, height: 532),
        Scaling(drawnWidth: 500, drawnHeight: 300, width: 500, height: 281),
    ])
    func columnsComeFromTheirOwnInput(_ scaling: Scaling) throws {
        let (width, height, pixels) = try reduce(drawnWidth: scaling.drawnWidth, drawnHeight: scaling.drawnHeight)
        try #require(width == scaling.width && height == scaling.height, "scaled to \(width) × \(height)")
        let scale = Double(Self.inputWidth) / Double(width)
        var wrong: [String] = []
        for y in [0, height / 2, height - 1] {
            for x in 0..<width {
                // The input columns under output column x, and one more each side.
                let first = max(0, Int((Double(x) * scale).rounded(.down)) - 1)
                let last = min(Self.inputWidth - 1, Int((Double(x + 1) * scale).rounded(.up)))
                let allowed: ClosedRange<Int>
                if Self.luma(last) - Self.luma(first) == 7 * (last - first) {
                    // All on one tooth: a straight ramp, which any resampler
                    // (box, bilinear, both) gives back exactly at the column's
                    // centre; ±3 for the rounding of its steps and of the
                    // conversion. One input column off is 8 grey levels off.
                    let centre = (Double(x) + 0.5) * scale
                    let ramp = Double(Self.luma(first)) + 7 * (centre - (Double(first) + 0.5))
                    let expected = (ramp - 16) * 255 / 219
                    allowed = Int((expected - 3).rounded(.up))...Int((expected + 3).rounded(.down))
                } else {
                    // Across a step of the sawtooth the filter decides how the
                    // two teeth mix: anything between the columns' values.
                    let lumas = (first...last).map(Self.luma)
                    allowed = (Self.grey(lumas.min()!) - 2)...(Self.grey(lumas.max()!) + 2)
                }
                let pixel = (y * width + x) * 4
                let (blue, green, red, alpha) = (pixels[pixel], pixels[pixel + 1], pixels[pixel + 2], pixels[pixel + 3])
                if !allowed.contains(Int(green)) || blue != green || red != green || alpha != 255 {
                    wrong.append("row \(y) column \(x): BGRA \(blue) \(green) \(red) \(alpha), grey allowed \(allowed) from input columns \(first)...\(last)")
                }
            }
        }
        #expect(wrong.count == 0, "first: \(wrong.prefix(4).joined(separator: "; "))")
    }
}
