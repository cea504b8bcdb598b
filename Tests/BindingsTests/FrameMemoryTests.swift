import Bindings
import CGLib
import CGStreamer
import CTrackcastVideo
import Testing

/// The memory and pool the frame reducer offers decoders
/// (`Sources/CTrackcastVideo/frame-pool.c`): GstVideoDecoder copies each
/// frame the codec still holds, and that copy must cost nothing until
/// written, while never seeing the bytes change under it.
@Suite("Frame memory: copies made when written")
struct FrameMemoryTests {
    init() { GStreamer.initialize() }

    /// Where the memory's bytes are, and the first two of them.
    private func read(_ memory: UnsafeMutablePointer<GstMemory>) throws -> (address: UnsafeMutablePointer<UInt8>, first: UInt8, second: UInt8) {
        var info = GstMapInfo()
        try #require(gst_memory_map(memory, &info, GST_MAP_READ) != 0)
        defer { gst_memory_unmap(memory, &info) }
        return (info.data, info.data[0], info.data[1])
    }

    private func write(_ memory: UnsafeMutablePointer<GstMemory>, _ value: UInt8, first only: Bool = false) throws {
        var info = GstMapInfo()
        try #require(gst_memory_map(memory, &info, GST_MAP_WRITE) != 0)
        defer { gst_memory_unmap(memory, &info) }
        for index in 0..<(only ? 1 : Int(info.size)) { info.data[index] = value }
    }

    @Test("a copy reads the bytes where they are; written, it gets its own, and the original keeps its bytes")
    func copyOnWrite() throws {
        let allocator = try #require(tc_frame_allocator_new())
        defer { gst_object_unref(UnsafeMutableRawPointer(allocator)) }
        let original = try #require(gst_allocator_alloc(allocator, 4096, nil))
        defer { gst_memory_unref(original) }
        try write(original, 7)
        let copy = try #require(gst_memory_copy(original, 0, -1))
        defer { gst_memory_unref(copy) }
        #expect(try read(copy).address == read(original).address, "the copy copied the bytes at once")
        try write(copy, 9, first: true)
        let (copied, kept) = (try read(copy), try read(original))
        #expect(copied.address != kept.address)
        #expect(copied.first == 9 && copied.second == 7, "the copy lost the bytes it was made of")
        #expect(kept.first == 7, "writing the copy changed the original")
    }

    @Test("the pool hands out no buffer whose bytes a copy still reads, and reuses it once none does")
    func poolKeepsReadBytes() throws {
        let allocator = try #require(tc_frame_allocator_new())
        defer { gst_object_unref(UnsafeMutableRawPointer(allocator)) }
        let pool = try #require(tc_frame_pool_new())
        defer {
            _ = gst_buffer_pool_set_active(pool, 0)
            gst_object_unref(UnsafeMutableRawPointer(pool))
        }
        let caps = gst_caps_from_string("video/x-raw,format=I420,width=64,height=64,framerate=30/1")
        defer { gst_caps_unref(caps) }
        let config = gst_buffer_pool_get_config(pool)
        gst_buffer_pool_config_set_params(config, caps, 64 * 64 * 3 / 2, 0, 0)
        gst_buffer_pool_config_set_allocator(config, allocator, nil)
        try #require(gst_buffer_pool_set_config(pool, config) != 0)
        try #require(gst_buffer_pool_set_active(pool, 1) != 0)

        func acquire() throws -> UnsafeMutablePointer<GstBuffer> {
            var buffer: UnsafeMutablePointer<GstBuffer>?
            try #require(gst_buffer_pool_acquire_buffer(pool, &buffer, nil) == GST_FLOW_OK)
            return try #require(buffer)
        }
        let decoded = try acquire()
        let memory = try #require(gst_buffer_peek_memory(decoded, 0))
        try write(memory, 5)
        // What gst_video_decoder_finish_frame does while the codec holds the frame.
        let copy = try #require(gst_memory_copy(memory, 0, -1))
        gst_buffer_unref(decoded)
        let next = try acquire()
        #expect(gst_buffer_peek_memory(next, 0) != memory, "the pool handed out memory a copy still reads")
        try write(try #require(gst_buffer_peek_memory(next, 0)), 6)
        #expect(try read(copy).first == 5)
        gst_memory_unref(copy)
        let reused = gst_buffer_peek_memory(next, 0)
        gst_buffer_unref(next)
        let again = try acquire()
        #expect(gst_buffer_peek_memory(again, 0) == reused, "a buffer nothing reads should be reused")
        gst_buffer_unref(again)
    }
}
