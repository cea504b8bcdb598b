/* Frame memory whose copies are made when written, not when taken: what
 * the frame reducer offers the decoder to decode into.
 *
 * Why: libavcodec keeps a decoded frame as a reference for the next ones
 * while GstVideoDecoder pushes it, and avdec keeps that buffer mapped for
 * writing meanwhile, so gst_video_decoder_finish_frame cannot take the
 * memory and copies it (gst_buffer_make_writable): a 1080p 10-bit 4:4:4
 * frame is 12 MB copied into freshly allocated memory, every frame, for the
 * reducer to read once. Here that copy refers to the decoded bytes, and
 * copies them only if something maps it for writing. libavcodec writes no
 * frame it has output (avdec gives it read-only references), so the bytes
 * a copy refers to stay as they were, until the pool would hand the buffer
 * out again to decode into: a buffer released while copies of it are alive
 * is not reused but freed (its memory lives on in the copies). */

#include <gst/gst.h>
#include <gst/video/gstvideopool.h>
#include <string.h>

#include "trackcast-video.h"

typedef struct FrameMemory {
    GstMemory memory;
    /* The start of maxsize bytes (what map returns; the memory's own bytes
     * are at its offset), and the block this memory frees (NULL: the bytes
     * are another memory's: its parent's, or its source's). */
    guint8 *data;
    guint8 *block;
    /* For a copy not written yet: the memory holding the bytes (a reference). */
    struct FrameMemory *source;
    /* On a memory holding a block: how many unwritten copies read it. */
    gint readers;
} FrameMemory;

typedef struct {
    GstAllocator parent;
} TcFrameAllocator;

typedef struct {
    GstAllocatorClass parent_class;
} TcFrameAllocatorClass;

G_DEFINE_TYPE(TcFrameAllocator, tc_frame_allocator, GST_TYPE_ALLOCATOR)

static FrameMemory *frame_memory_new(GstAllocator *allocator, GstMemoryFlags flags, GstMemory *parent, gsize maxsize,
                                     gsize align, gsize offset, gsize size) {
    FrameMemory *memory = g_new0(FrameMemory, 1);
    gst_memory_init(&memory->memory, flags, allocator, parent, maxsize, align, offset, size);
    return memory;
}

/* A block of maxsize bytes aligned to `align` (a mask, as GstMemory keeps it). */
static void take_block(FrameMemory *memory, gsize maxsize, gsize align) {
    memory->block = g_malloc(maxsize + align);
    memory->data = (guint8 *)(((guintptr)memory->block + align) & ~(guintptr)align);
}

static GstMemory *frame_alloc(GstAllocator *allocator, gsize size, GstAllocationParams *params) {
    gsize align = params->align | gst_memory_alignment, maxsize = params->prefix + size + params->padding;
    FrameMemory *memory = frame_memory_new(allocator, params->flags, NULL, maxsize, align, params->prefix, size);
    take_block(memory, maxsize, align);
    if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix > 0) memset(memory->data, 0, params->prefix);
    if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding > 0)
        memset(memory->data + params->prefix + size, 0, params->padding);
    return &memory->memory;
}

/* The memory holding the block `memory`'s bytes are in. */
static FrameMemory *holder(FrameMemory *memory) {
    if (memory->source != NULL) return memory->source;
    if (memory->block != NULL || memory->memory.parent == NULL) return memory;
    return holder((FrameMemory *)memory->memory.parent);
}

static void read_from(FrameMemory *memory, FrameMemory *source) {
    memory->source = (FrameMemory *)gst_memory_ref(&source->memory);
    g_atomic_int_inc(&source->readers);
    memory->data = source->data;
}

static void stop_reading(FrameMemory *memory) {
    if (memory->source == NULL) return;
    g_atomic_int_add(&memory->source->readers, -1);
    gst_memory_unref(&memory->source->memory);
    memory->source = NULL;
}

/* A copy about to be written gets its own bytes. */
static void make_own(FrameMemory *memory) {
    const guint8 *bytes = memory->data;
    take_block(memory, memory->memory.maxsize, memory->memory.align);
    memcpy(memory->data, bytes, memory->memory.maxsize);
    stop_reading(memory);
}

static gpointer frame_map(GstMemory *memory, gsize maxsize, GstMapFlags flags) {
    (void)maxsize;
    FrameMemory *frame = (FrameMemory *)memory;
    if ((flags & GST_MAP_WRITE) && frame->source != NULL) make_own(frame);
    return frame->data;
}

static void frame_unmap(GstMemory *memory) { (void)memory; }

static void frame_free(GstAllocator *allocator, GstMemory *memory) {
    (void)allocator;
    FrameMemory *frame = (FrameMemory *)memory;
    stop_reading(frame);
    g_free(frame->block);
    g_free(frame);
}

/* A copy of [offset, offset + size) of the memory's bytes, reading them
 * where they are until it is mapped for writing. */
static GstMemory *frame_copy(GstMemory *memory, gssize offset, gssize size) {
    FrameMemory *frame = (FrameMemory *)memory;
    if (size == -1) size = memory->size > (gsize)offset ? (gssize)(memory->size - offset) : 0;
    FrameMemory *copy = frame_memory_new(memory->allocator, 0, NULL, memory->maxsize, memory->align,
                                         memory->offset + offset, size);
    read_from(copy, holder(frame));
    return &copy->memory;
}

/* As GstSystemMemory shares: the same bytes, read-only, its parent the root. */
static GstMemory *frame_share(GstMemory *memory, gssize offset, gssize size) {
    FrameMemory *frame = (FrameMemory *)memory;
    GstMemory *root = memory->parent != NULL ? memory->parent : memory;
    if (size == -1) size = memory->size - offset;
    FrameMemory *shared = frame_memory_new(memory->allocator,
                                           GST_MINI_OBJECT_FLAGS(root) | GST_MINI_OBJECT_FLAG_LOCK_READONLY, root,
                                           memory->maxsize, memory->align, memory->offset + offset, size);
    if (frame->source != NULL) read_from(shared, frame->source);
    shared->data = frame->data;
    return &shared->memory;
}

static gboolean frame_is_span(GstMemory *first, GstMemory *second, gsize *offset) {
    (void)first;
    (void)second;
    (void)offset;
    return FALSE;
}

static void tc_frame_allocator_class_init(TcFrameAllocatorClass *klass) {
    GST_ALLOCATOR_CLASS(klass)->alloc = frame_alloc;
    GST_ALLOCATOR_CLASS(klass)->free = frame_free;
}

static void tc_frame_allocator_init(TcFrameAllocator *self) {
    GstAllocator *allocator = GST_ALLOCATOR(self);
    allocator->mem_type = "TcFrameMemory";
    allocator->mem_map = frame_map;
    allocator->mem_unmap = frame_unmap;
    allocator->mem_copy = frame_copy;
    allocator->mem_share = frame_share;
    allocator->mem_is_span = frame_is_span;
}

/* A video buffer pool that frees, rather than hands out again, a buffer
 * whose bytes unwritten copies still read. */
typedef struct {
    GstVideoBufferPool parent;
} TcFramePool;

typedef struct {
    GstVideoBufferPoolClass parent_class;
} TcFramePoolClass;

G_DEFINE_TYPE(TcFramePool, tc_frame_pool, GST_TYPE_VIDEO_BUFFER_POOL)

static void release_buffer(GstBufferPool *pool, GstBuffer *buffer) {
    for (guint i = 0; i < gst_buffer_n_memory(buffer); i++) {
        GstMemory *memory = gst_buffer_peek_memory(buffer, i);
        if (G_TYPE_CHECK_INSTANCE_TYPE(memory->allocator, tc_frame_allocator_get_type())
            && g_atomic_int_get(&((FrameMemory *)memory)->readers) > 0) {
            /* A pool frees a released buffer whose memory was tagged as changed. */
            GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_TAG_MEMORY);
            break;
        }
    }
    GST_BUFFER_POOL_CLASS(tc_frame_pool_parent_class)->release_buffer(pool, buffer);
}

static void tc_frame_pool_class_init(TcFramePoolClass *klass) { GST_BUFFER_POOL_CLASS(klass)->release_buffer = release_buffer; }

static void tc_frame_pool_init(TcFramePool *self) { (void)self; }

GstAllocator *tc_frame_allocator_new(void) { return gst_object_ref_sink(g_object_new(tc_frame_allocator_get_type(), NULL)); }

GstBufferPool *tc_frame_pool_new(void) { return gst_object_ref_sink(g_object_new(tc_frame_pool_get_type(), NULL)); }
