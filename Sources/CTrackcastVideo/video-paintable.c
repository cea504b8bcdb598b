#include "trackcast-video.h"

#include <gtk/gtk.h>
#include <gst/app/gstappsink.h>
#include "frame-reducer.h"
#include <gst/video/video.h>

struct _TcVideoPaintable {
    GObject parent_instance;

    /* What playbin gets: the converter and the appsink in a bin, and the
     * frame reducer as its video filter. */
    GstElement *sink;
    GstElement *filter;
    GstElement *appsink;

    /* Shared with the streaming thread, under `lock`. */
    GMutex lock;
    GstSample *pending;
    gboolean callback_scheduled;

    /* Main thread only. The frame shown: a texture, or with the cairo
     * renderer an image surface (one of the two, or neither: black). */
    GdkTexture *texture;
    cairo_surface_t *surface;
    /* The sample the frame shown was made from, for frame capture. */
    GstSample *shown_sample;
    /* The caps the last sample came with, and what they say (see video_info_of). */
    GstCaps *info_caps;
    GstVideoInfo info;
    gboolean draws_with_cairo;
    gboolean texture_painted;
    int width, height;
    double pixel_aspect;

    /* The size frames are scaled to upstream (0: as decoded), and the
     * largest size drawn since a resize check was scheduled. */
    int target_width, target_height;
    int drawn_width, drawn_height;
    guint resize_source;

    /* Set when frames are converted on the GPU (main thread only); why
     * not, when that was asked for and is not possible. */
    TcGLFrameConverter *converter;
    char *why_not_gpu;

    /* Counters, updated and read with atomics. */
    guint64 received, dropped, painted;
};

static void tc_video_paintable_paintable_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(TcVideoPaintable, tc_video_paintable, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, tc_video_paintable_paintable_init))

/* The frame stays mapped while GDK holds the texture that wraps it. */
typedef struct {
    GstVideoFrame frame;
} MappedFrame;

static void mapped_frame_free(gpointer data) {
    MappedFrame *mapped = data;
    gst_video_frame_unmap(&mapped->frame);
    g_free(mapped);
}

static void request_size(TcVideoPaintable *self, int width, int height);

static gboolean has_frame(TcVideoPaintable *self) { return self->texture != NULL || self->surface != NULL; }

/* A cairo pattern drawing the frame's image without copying it. A cairo
 * node records what it is given; an image surface would be recorded as a
 * copy-on-write snapshot, and cairo 1.16 copies the image (all of it, for
 * a node nobody draws again) when the frame is freed while GTK still holds
 * the node, as it does each time the next frame comes. A raster source is
 * recorded by reference: each copy of the pattern holds the frame. */
static cairo_surface_t *frame_acquire(cairo_pattern_t *pattern, void *frame, cairo_surface_t *target,
                                      const cairo_rectangle_int_t *extents) {
    return cairo_surface_reference(frame);
}

static void frame_release(cairo_pattern_t *pattern, void *frame, cairo_surface_t *surface) {
    cairo_surface_destroy(surface);
}

static cairo_status_t frame_copy(cairo_pattern_t *pattern, void *frame, const cairo_pattern_t *other) {
    cairo_surface_reference(frame);
    return CAIRO_STATUS_SUCCESS;
}

static void frame_finish(cairo_pattern_t *pattern, void *frame) { cairo_surface_destroy(frame); }

static cairo_pattern_t *frame_pattern(cairo_surface_t *frame) {
    cairo_pattern_t *pattern = cairo_pattern_create_raster_source(cairo_surface_reference(frame), CAIRO_CONTENT_COLOR,
                                                                  cairo_image_surface_get_width(frame),
                                                                  cairo_image_surface_get_height(frame));
    cairo_raster_source_pattern_set_acquire(pattern, frame_acquire, frame_release);
    cairo_raster_source_pattern_set_copy(pattern, frame_copy);
    cairo_raster_source_pattern_set_finish(pattern, frame_finish);
    return pattern;
}

/* The cairo renderer draws a texture by converting its pixels through
 * floats into a new image each frame (GTK 4.8), which measured here cost
 * more than the colour conversion. A cairo node drawing the frame's image
 * is drawn by pixman directly: at the drawn size, a plain copy. */
static void append_surface(TcVideoPaintable *self, GtkSnapshot *snapshot, const graphene_rect_t *bounds,
                           double width, double height) {
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot, bounds);
    int frame_width = cairo_image_surface_get_width(self->surface);
    int frame_height = cairo_image_surface_get_height(self->surface);
    cairo_pattern_t *pattern = frame_pattern(self->surface);
    if (ABS(frame_width - width) <= 2 && ABS(frame_height - height) <= 2) {
        /* Made at this size (give or take rounding): copied, not resampled.
         * Nearest lets cairo round a position between pixels to whole
         * pixels instead of filtering every pixel. */
        cairo_translate(cr, (int)((width - frame_width) / 2), (int)((height - frame_height) / 2));
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST);
    } else {
        /* Until frames of the new size come (a resize): scaled. */
        cairo_scale(cr, width / frame_width, height / frame_height);
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR);
    }
    cairo_set_source(cr, pattern);
    cairo_pattern_destroy(pattern);
    cairo_paint(cr);
    cairo_destroy(cr);
}

/* The frame's place in a widget of this size: its display aspect, centred,
 * on whole pixels (cairo copies a frame made at that size only when it
 * lands on whole pixels; otherwise it resamples every pixel). */
static cairo_rectangle_int_t fitted_rect(TcVideoPaintable *self, int width, int height) {
    cairo_rectangle_int_t rect = {0, 0, width, height};
    double aspect = self->height > 0 ? self->width * self->pixel_aspect / self->height : 0;
    if (aspect <= 0 || width <= 0 || height <= 0) return rect;
    if (width > height * aspect) rect.width = (int)(height * aspect + 0.5);
    else rect.height = (int)(width / aspect + 0.5);
    rect.x = (width - rect.width) / 2;
    rect.y = (height - rect.height) / 2;
    return rect;
}

static void append_black(GtkSnapshot *snapshot, int x, int y, int width, int height) {
    if (width <= 0 || height <= 0) return;
    GdkRGBA black = {0, 0, 0, 1};
    gtk_snapshot_append_color(snapshot, &black, &GRAPHENE_RECT_INIT((float)x, (float)y, (float)width, (float)height));
}

/* The paintable letterboxes itself (the picture gives it all its room):
 * the frame first, the bars after. With the cairo renderer a frame drawn
 * onto a spot nothing was drawn on this frame is replayed straight onto
 * it, one copy; drawn over a background (the window's, bars under it), it
 * is replayed into a cleared image first and blended over it, which took
 * a quarter of the main thread's time per frame (docs/BENCHMARKS.md). */
static void paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *gdk_snapshot, double width, double height) {
    TcVideoPaintable *self = TC_VIDEO_PAINTABLE(paintable);
    GtkSnapshot *snapshot = GTK_SNAPSHOT(gdk_snapshot);
    int area_width = (int)(width + 0.5), area_height = (int)(height + 0.5);
    if (!has_frame(self)) {
        /* Stopped or not started: black, never stale pixels. */
        append_black(snapshot, 0, 0, area_width, area_height);
        return;
    }
    cairo_rectangle_int_t frame = fitted_rect(self, area_width, area_height);
    graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)frame.width, (float)frame.height);
    gtk_snapshot_save(snapshot);
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)frame.x, (float)frame.y));
    if (self->surface != NULL)
        append_surface(self, snapshot, &bounds, frame.width, frame.height);
    else
        gtk_snapshot_append_texture(snapshot, self->texture, &bounds);
    gtk_snapshot_restore(snapshot);
    append_black(snapshot, 0, 0, area_width, frame.y);
    append_black(snapshot, 0, frame.y + frame.height, area_width, area_height - frame.y - frame.height);
    append_black(snapshot, 0, frame.y, frame.x, frame.height);
    append_black(snapshot, frame.x + frame.width, frame.y, area_width - frame.x - frame.width, frame.height);
    request_size(self, frame.width, frame.height);
    if (!self->texture_painted) {
        self->texture_painted = TRUE;
        __atomic_fetch_add(&self->painted, 1, __ATOMIC_RELAXED);
    }
}

static int display_width(TcVideoPaintable *self) {
    return (int)(self->width * self->pixel_aspect + 0.5);
}

static int paintable_intrinsic_width(GdkPaintable *paintable) {
    TcVideoPaintable *self = TC_VIDEO_PAINTABLE(paintable);
    return has_frame(self) ? display_width(self) : 0;
}

static int paintable_intrinsic_height(GdkPaintable *paintable) {
    TcVideoPaintable *self = TC_VIDEO_PAINTABLE(paintable);
    return has_frame(self) ? self->height : 0;
}

static double paintable_intrinsic_aspect_ratio(GdkPaintable *paintable) {
    TcVideoPaintable *self = TC_VIDEO_PAINTABLE(paintable);
    return has_frame(self) && self->height > 0 ? (double)display_width(self) / self->height : 0;
}

static void tc_video_paintable_paintable_init(GdkPaintableInterface *iface) {
    iface->snapshot = paintable_snapshot;
    iface->get_intrinsic_width = paintable_intrinsic_width;
    iface->get_intrinsic_height = paintable_intrinsic_height;
    iface->get_intrinsic_aspect_ratio = paintable_intrinsic_aspect_ratio;
}

/* Main thread: swaps in the frame (a texture or a surface, taking the
 * reference; neither for black) and tells every widget showing us. */
static void show_frame(TcVideoPaintable *self, GdkTexture *texture, cairo_surface_t *surface, int width, int height,
                       double pixel_aspect) {
    gboolean shown = texture != NULL || surface != NULL;
    gboolean size_changed = has_frame(self) != shown || width != self->width ||
                            height != self->height || pixel_aspect != self->pixel_aspect;
    g_clear_object(&self->texture);
    g_clear_pointer(&self->surface, cairo_surface_destroy);
    self->texture = texture;
    self->surface = surface;
    self->texture_painted = FALSE;
    self->width = width;
    self->height = height;
    self->pixel_aspect = pixel_aspect;
    if (size_changed) gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
    gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}

/* Scaling on the CPU is cheap when folded into the colour conversion and
 * saves converting, uploading and scaling down pixels nobody sees: frames
 * are asked for at the size they are drawn (the largest, when several
 * widgets show them), keeping the display aspect with square pixels.
 * Frames smaller than that come as decoded; GTK scales them up. */
static void apply_size(TcVideoPaintable *self, int width, int height) {
    if (self->sink == NULL) return;
    self->target_width = width;
    self->target_height = height;
    if (self->converter != NULL) {
        /* On the GPU the decoded planes are scaled in the conversion pass:
         * the frame on screen is drawn again at the new size, from the
         * planes already uploaded, also while paused. */
        GdkTexture *texture = self->texture ? tc_gl_frame_converter_render(self->converter, width, height) : NULL;
        if (texture != NULL) show_frame(self, texture, NULL, self->width, self->height, self->pixel_aspect);
        return;
    }
    /* The reducer scales and converts the frames it takes (most decoders'
     * formats); the sink's scaler and converter the others. */
    tc_frame_reducer_set_drawn_size(self->filter, width, height);
    GstCaps *caps = width > 0 && height > 0
        ? gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "BGRA",
                              "width", GST_TYPE_INT_RANGE, 1, width, "height", GST_TYPE_INT_RANGE, 1, height,
                              "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL)
        : gst_caps_from_string("video/x-raw,format=BGRA");
    g_object_set(self->appsink, "caps", caps, NULL);
    gst_caps_unref(caps);
    GstPad *pad = gst_element_get_static_pad(self->appsink, "sink");
    if (pad != NULL) {
        gst_pad_push_event(pad, gst_event_new_reconfigure());
        gst_object_unref(pad);
    }
}

static gboolean resize_check(gpointer data) {
    TcVideoPaintable *self = data;
    self->resize_source = 0;
    if (self->drawn_width != self->target_width || self->drawn_height != self->target_height)
        apply_size(self, self->drawn_width, self->drawn_height);
    self->drawn_width = self->drawn_height = 0;
    return G_SOURCE_REMOVE;
}

/* Main thread, from snapshot. A resize drags through many sizes: the size
 * is settled a moment later, from the largest drawn meanwhile. */
static void request_size(TcVideoPaintable *self, int width, int height) {
    if (self->resize_source != 0) {
        self->drawn_width = MAX(self->drawn_width, width);
        self->drawn_height = MAX(self->drawn_height, height);
        return;
    }
    /* Within a few pixels: rounding, not worth a renegotiation. */
    if (ABS(width - self->target_width) <= 2 && ABS(height - self->target_height) <= 2) return;
    self->drawn_width = width;
    self->drawn_height = height;
    /* The first size is no drag: asked for at once (right after this
     * snapshot), since until then every frame is converted at full size and
     * scaled again when drawn, which made the first second drop frames. */
    guint delay = self->target_width == 0 && self->target_height == 0 ? 0 : 300;
    self->resize_source = g_timeout_add_full(G_PRIORITY_DEFAULT, delay, resize_check, g_object_ref(self), g_object_unref);
}

/* The size a GPU-converted frame is drawn at: the size it was last drawn
 * at, or before it has been drawn, its display size. */
static void gpu_target_size(TcVideoPaintable *self, const GstVideoInfo *info, double pixel_aspect, int *width, int *height) {
    if (self->target_width > 0 && self->target_height > 0) {
        *width = self->target_width;
        *height = self->target_height;
    } else {
        *width = (int)(GST_VIDEO_INFO_WIDTH(info) * pixel_aspect + 0.5);
        *height = GST_VIDEO_INFO_HEIGHT(info);
    }
}

/* GPU path: the planes are uploaded (copied into GL textures, so the frame
 * is unmapped at once) and converted at the drawn size. */
static GdkTexture *gl_texture_from_sample(TcVideoPaintable *self, GstBuffer *buffer, GstVideoInfo *info,
                                          int *width, int *height, double *pixel_aspect) {
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, info, buffer, GST_MAP_READ)) return NULL;
    gboolean uploaded = tc_gl_frame_converter_upload(self->converter, &frame);
    gst_video_frame_unmap(&frame);
    if (!uploaded) return NULL;
    *width = GST_VIDEO_INFO_WIDTH(info);
    *height = GST_VIDEO_INFO_HEIGHT(info);
    int target_width = 0, target_height = 0;
    gpu_target_size(self, info, *pixel_aspect, &target_width, &target_height);
    return tc_gl_frame_converter_render(self->converter, target_width, target_height);
}

static const cairo_user_data_key_t mapped_frame_key;

/* Main thread: what `caps` say, parsed once: every sample carries the same
 * caps object until they change, and parsing them for each frame was 2 %
 * of the main thread's time. The reference kept means a new object is
 * never mistaken for it. */
static gboolean video_info_of(TcVideoPaintable *self, GstCaps *caps, GstVideoInfo *info) {
    if (caps != self->info_caps) {
        gst_caps_replace(&self->info_caps, NULL);
        if (!gst_video_info_from_caps(&self->info, caps)) return FALSE;
        gst_caps_replace(&self->info_caps, caps);
    }
    *info = self->info;
    return TRUE;
}

/* Either a texture or, for the cairo renderer, an image surface (in `surface`). */
static GdkTexture *texture_from_sample(TcVideoPaintable *self, GstSample *sample, int *width, int *height,
                                       double *pixel_aspect, cairo_surface_t **surface) {
    GstVideoInfo info;
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    if (caps == NULL || buffer == NULL || !video_info_of(self, caps, &info)) return NULL;
    *pixel_aspect = info.par_d > 0 && info.par_n > 0 ? (double)info.par_n / info.par_d : 1.0;
    if (self->converter != NULL) return gl_texture_from_sample(self, buffer, &info, width, height, pixel_aspect);
    if (GST_VIDEO_INFO_FORMAT(&info) != GST_VIDEO_FORMAT_BGRA) return NULL;

    MappedFrame *mapped = g_new0(MappedFrame, 1);
    /* Maps and refs the buffer; the GBytes below unmaps and unrefs it. */
    if (!gst_video_frame_map(&mapped->frame, &info, buffer, GST_MAP_READ)) {
        g_free(mapped);
        return NULL;
    }
    int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped->frame, 0);
    *width = GST_VIDEO_FRAME_WIDTH(&mapped->frame);
    *height = GST_VIDEO_FRAME_HEIGHT(&mapped->frame);
    if (self->draws_with_cairo) {
        /* BGRA is cairo's (little-endian) pixel layout; RGB24 ignores the
         * alpha, so drawing is a copy. Unmapped when cairo lets go of it. */
        *surface = cairo_image_surface_create_for_data(GST_VIDEO_FRAME_PLANE_DATA(&mapped->frame, 0),
                                                       CAIRO_FORMAT_RGB24, *width, *height, stride);
        cairo_surface_set_user_data(*surface, &mapped_frame_key, mapped, mapped_frame_free);
        return NULL;
    }
    GBytes *bytes = g_bytes_new_with_free_func(GST_VIDEO_FRAME_PLANE_DATA(&mapped->frame, 0),
                                               (gsize)stride * *height, mapped_frame_free, mapped);
    /* BGRA from an opaque source has alpha 255, so premultiplied is the same
     * bytes, and it is the layout cairo and GL take without converting. */
    GdkTexture *texture = gdk_memory_texture_new(*width, *height, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, stride);
    g_bytes_unref(bytes);
    return texture;
}

/* Main thread, at most one scheduled at a time. */
static gboolean take_pending(gpointer data) {
    TcVideoPaintable *self = data;
    g_mutex_lock(&self->lock);
    GstSample *sample = self->pending;
    self->pending = NULL;
    self->callback_scheduled = FALSE;
    g_mutex_unlock(&self->lock);
    if (sample == NULL) return G_SOURCE_REMOVE;

    int width = 0, height = 0;
    double pixel_aspect = 1;
    cairo_surface_t *surface = NULL;
    GdkTexture *texture = texture_from_sample(self, sample, &width, &height, &pixel_aspect, &surface);
    if (texture != NULL || surface != NULL) {
        show_frame(self, texture, surface, width, height, pixel_aspect);
        /* Kept for capture: on the CPU path the texture holds the same
         * buffer anyway, so this keeps no frame alive that would not be. */
        g_clear_pointer(&self->shown_sample, gst_sample_unref);
        self->shown_sample = sample;
    } else {
        gst_sample_unref(sample);
    }
    return G_SOURCE_REMOVE;
}

/* Streaming thread: never blocks on the main thread, never queues more than one. */
static void offer_sample(TcVideoPaintable *self, GstSample *sample) {
    if (sample == NULL) return;
    g_mutex_lock(&self->lock);
    __atomic_fetch_add(&self->received, 1, __ATOMIC_RELAXED);
    if (self->pending != NULL) {
        gst_sample_unref(self->pending);
        __atomic_fetch_add(&self->dropped, 1, __ATOMIC_RELAXED);
    }
    self->pending = sample;
    gboolean schedule = !self->callback_scheduled;
    self->callback_scheduled = TRUE;
    g_mutex_unlock(&self->lock);
    if (schedule) {
        /* Above GTK's redraw priority, so a frame that arrived is shown in
         * the next paint; the idle holds a reference until it has run. */
        g_idle_add_full(G_PRIORITY_DEFAULT, take_pending, g_object_ref(self), g_object_unref);
    }
}

static GstFlowReturn on_new_sample(GstAppSink *sink, gpointer data) {
    offer_sample(data, gst_app_sink_pull_sample(sink));
    return GST_FLOW_OK;
}

static GstFlowReturn on_new_preroll(GstAppSink *sink, gpointer data) {
    /* A paused seek shows where it landed. */
    offer_sample(data, gst_app_sink_pull_preroll(sink));
    return GST_FLOW_OK;
}

/* The sink playbin gets: videoscale, videoconvert, the appsink. Scaling the
 * I420 planes first and converting only the drawn size is GStreamer's fast
 * path; one pass doing both (videoconvertscale, or playbin's native-video
 * flag) takes the generic converter and measured dearer. The frame reducer
 * usually scales and converts already (playsink's videoscale and our
 * videoconvert otherwise), and these pass its frames through. */
static GstElement *make_sink(GstElement *appsink) {
    GstElement *scale = gst_element_factory_make("videoscale", NULL);
    GstElement *convert = gst_element_factory_make("videoconvert", NULL);
    if (scale == NULL || convert == NULL) {
        if (scale != NULL) gst_object_unref(gst_object_ref_sink(scale));
        if (convert != NULL) gst_object_unref(gst_object_ref_sink(convert));
        return gst_object_ref_sink(appsink);
    }
    GstElement *bin = gst_bin_new("trackcast-video-output");
    gst_bin_add_many(GST_BIN(bin), scale, convert, appsink, NULL);
    gst_element_link_many(scale, convert, appsink, NULL);
    GstPad *target = gst_element_get_static_pad(scale, "sink");
    gst_element_add_pad(bin, gst_ghost_pad_new("sink", target));
    gst_object_unref(target);
    return gst_object_ref_sink(bin);
}

static void tc_video_paintable_init(TcVideoPaintable *self) {
    g_mutex_init(&self->lock);
    self->pixel_aspect = 1;
    GstElement *appsink = gst_element_factory_make("appsink", "trackcast-video-sink");
    if (appsink == NULL) return;
    GstCaps *caps = gst_caps_from_string("video/x-raw,format=BGRA");
    /* One buffer at most inside the appsink too: late frames are dropped
     * (qos tells the decoder to skip them), never queued. */
    g_object_set(appsink, "caps", caps, "max-buffers", 1, "drop", TRUE, "qos", TRUE, "sync", TRUE,
                 "enable-last-sample", FALSE, NULL);
    gst_caps_unref(caps);
    GstAppSinkCallbacks callbacks = {0};
    callbacks.new_sample = on_new_sample;
    callbacks.new_preroll = on_new_preroll;
    /* No destroy notify: the sink cannot outlive us (we hold it and stop it
     * in dispose), and the streaming thread must not drop our last reference. */
    gst_app_sink_set_callbacks(GST_APP_SINK(appsink), &callbacks, self, NULL);
    self->appsink = appsink;
    self->sink = make_sink(appsink);
    self->filter = gst_object_ref_sink(tc_frame_reducer_new());
}

/* Main thread, before the sink is in a pipeline: I420 as decoded for the
 * GPU, or BGRA (sized later, by apply_size) for the CPU. */
static void choose_conversion(TcVideoPaintable *self, gboolean convert_on_gpu) {
    if (self->appsink == NULL) return;
    if (convert_on_gpu) self->converter = tc_gl_frame_converter_new(&self->why_not_gpu);
    if (self->converter == NULL) return;
    /* Most decoders (H.264, VP8, VP9, AV1 at 8 bits) give I420, and
     * videoconvertscale then passes their frames through untouched. */
    GstCaps *caps = gst_caps_from_string("video/x-raw,format=I420");
    g_object_set(self->appsink, "caps", caps, NULL);
    gst_caps_unref(caps);
}

static void tc_video_paintable_dispose(GObject *object) {
    TcVideoPaintable *self = TC_VIDEO_PAINTABLE(object);
    if (self->appsink != NULL) {
        GstAppSinkCallbacks none = {0};
        gst_app_sink_set_callbacks(GST_APP_SINK(self->appsink), &none, NULL, NULL);
        self->appsink = NULL;
        gst_clear_object(&self->sink);
    }
    gst_clear_object(&self->filter);
    g_mutex_lock(&self->lock);
    g_clear_pointer(&self->pending, gst_sample_unref);
    g_mutex_unlock(&self->lock);
    g_clear_object(&self->texture);
    g_clear_pointer(&self->surface, cairo_surface_destroy);
    g_clear_pointer(&self->shown_sample, gst_sample_unref);
    gst_caps_replace(&self->info_caps, NULL);
    g_clear_pointer(&self->converter, tc_gl_frame_converter_unref);
    G_OBJECT_CLASS(tc_video_paintable_parent_class)->dispose(object);
}

static void tc_video_paintable_finalize(GObject *object) {
    g_mutex_clear(&TC_VIDEO_PAINTABLE(object)->lock);
    g_free(TC_VIDEO_PAINTABLE(object)->why_not_gpu);
    G_OBJECT_CLASS(tc_video_paintable_parent_class)->finalize(object);
}

static void tc_video_paintable_class_init(TcVideoPaintableClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = tc_video_paintable_dispose;
    G_OBJECT_CLASS(klass)->finalize = tc_video_paintable_finalize;
}

TcVideoPaintable *tc_video_paintable_new(gboolean convert_on_gpu, gboolean draws_with_cairo) {
    TcVideoPaintable *self = g_object_new(TC_TYPE_VIDEO_PAINTABLE, NULL);
    self->draws_with_cairo = draws_with_cairo && !convert_on_gpu;
    choose_conversion(self, convert_on_gpu);
    return self;
}

gboolean tc_video_paintable_converts_on_gpu(TcVideoPaintable *self) { return self->converter != NULL; }
const char *tc_video_paintable_why_not_gpu(TcVideoPaintable *self) { return self->why_not_gpu; }

GstElement *tc_video_paintable_get_sink(TcVideoPaintable *self) { return self->sink; }
GstElement *tc_video_paintable_get_filter(TcVideoPaintable *self) { return self->filter; }

void tc_video_paintable_clear(TcVideoPaintable *self) {
    g_mutex_lock(&self->lock);
    g_clear_pointer(&self->pending, gst_sample_unref);
    g_mutex_unlock(&self->lock);
    g_clear_pointer(&self->shown_sample, gst_sample_unref);
    if (has_frame(self)) show_frame(self, NULL, NULL, 0, 0, 1);
}

GstSample *tc_video_paintable_dup_shown_sample(TcVideoPaintable *self) {
    return self->shown_sample != NULL ? gst_sample_ref(self->shown_sample) : NULL;
}

guint64 tc_video_paintable_frames_received(TcVideoPaintable *self) {
    return __atomic_load_n(&self->received, __ATOMIC_RELAXED);
}
guint64 tc_video_paintable_frames_dropped(TcVideoPaintable *self) {
    return __atomic_load_n(&self->dropped, __ATOMIC_RELAXED);
}
guint64 tc_video_paintable_frames_painted(TcVideoPaintable *self) {
    return __atomic_load_n(&self->painted, __ATOMIC_RELAXED);
}

int tc_video_paintable_frame_width(TcVideoPaintable *self) { return has_frame(self) ? self->width : 0; }
int tc_video_paintable_frame_height(TcVideoPaintable *self) { return has_frame(self) ? self->height : 0; }
double tc_video_paintable_pixel_aspect(TcVideoPaintable *self) { return has_frame(self) ? self->pixel_aspect : 0; }
