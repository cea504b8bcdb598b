#pragma once
#include <gdk/gdk.h>
#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* A GdkPaintable fed by an appsink: the video output of a GStreamer
 * pipeline, drawable by any number of GtkPictures at once.
 *
 * Threading: the appsink's callbacks run on the streaming thread and only
 * swap the newest sample into a locked slot, scheduling one main-context
 * idle callback if none is pending; a sample replaced before the main
 * thread took it is dropped (counted). The texture is made and swapped on
 * the main thread only, wrapping the mapped frame (no copy). */
#define TC_TYPE_VIDEO_PAINTABLE (tc_video_paintable_get_type())
G_DECLARE_FINAL_TYPE(TcVideoPaintable, tc_video_paintable, TC, VIDEO_PAINTABLE, GObject)

/* With `convert_on_gpu`, frames come as I420 planes at their decoded size
 * and are converted and scaled on the GPU (TcGLFrameConverter) into GL
 * textures; without it, or when no GL context can be made, as BGRA at the
 * drawn size, converted and scaled on the CPU into memory textures (for the
 * cairo renderer, or when GL is missing). CPU frames are drawn as cairo
 * images with `draws_with_cairo` (GTK's cairo renderer: a plain copy), as
 * memory textures otherwise. Main thread, after GTK is up. */
TcVideoPaintable *tc_video_paintable_new(gboolean convert_on_gpu, gboolean draws_with_cairo);

/* TRUE when frames are converted on the GPU; why not otherwise (or NULL
 * when it was not asked for). */
gboolean tc_video_paintable_converts_on_gpu(TcVideoPaintable *self);
const char *tc_video_paintable_why_not_gpu(TcVideoPaintable *self);

/* The element to use as playbin's video-sink (transfer none). */
GstElement *tc_video_paintable_get_sink(TcVideoPaintable *self);
/* The filter for playbin's video-filter, ahead of playsink's own converter
 * and scaler: 10-bit, 4:4:4 and 4:2:2 frames made 8-bit 4:2:0, and frames
 * bigger than drawn (on the CPU path) made BGRA at the drawn size, in one
 * pass. Other formats pass. */
GstElement *tc_video_paintable_get_filter(TcVideoPaintable *self);

/* Main thread: forgets the current frame and any pending one; the paintable
 * draws black until the next frame. */
void tc_video_paintable_clear(TcVideoPaintable *self);

/* Samples that reached the slot; samples replaced in the slot before the
 * main thread took them; textures that were drawn at least once. */
guint64 tc_video_paintable_frames_received(TcVideoPaintable *self);
guint64 tc_video_paintable_frames_dropped(TcVideoPaintable *self);
guint64 tc_video_paintable_frames_painted(TcVideoPaintable *self);

/* Main thread: the sample the frame on screen was made from (transfer
 * full), or NULL without one: for capturing it. */
GstSample *tc_video_paintable_dup_shown_sample(TcVideoPaintable *self);

/* The current frame's storage size and pixel aspect ratio; 0 without a frame. */
int tc_video_paintable_frame_width(TcVideoPaintable *self);
int tc_video_paintable_frame_height(TcVideoPaintable *self);
double tc_video_paintable_pixel_aspect(TcVideoPaintable *self);

/* What the frame reducer offers the decoder to decode into (frame-pool.c):
 * memory whose copies are made when written, not when taken, and a video
 * buffer pool that does not decode into a buffer whose bytes copies still
 * read. Transfer full. */
GstAllocator *tc_frame_allocator_new(void);
GstBufferPool *tc_frame_pool_new(void);

G_END_DECLS

G_BEGIN_DECLS
#include <gtk/gtk.h>

/* Asks the window manager to keep a mapped window above the others and on
 * every workspace (_NET_WM_STATE_ABOVE and _NET_WM_STATE_STICKY, as
 * EWMH specifies). Returns FALSE where there is no such request: not on
 * X11, or not mapped yet. */
gboolean tc_window_request_above_and_sticky(GtkWindow *window);

/* Asks the window manager to keep a mapped window's width:height at
 * `width`:`height` when the user resizes it (ICCCM WM_NORMAL_HINTS
 * aspect, min = max), keeping the other hints GTK set. GTK 4 has no
 * geometry hints of its own. FALSE where there is no such request: not on
 * X11, or not mapped yet. */
gboolean tc_window_lock_aspect(GtkWindow *window, int width, int height);

/* Whether the default display is an X11 one (not Wayland). */
gboolean tc_display_is_x11(void);

/* A bin that, under GTK's cairo renderer, draws its child from a recording
 * made each time the child changes, so frames that redraw only something
 * else (a video beside it) skip the child's nodes with one bounds check
 * (recorded-bin.c). Other renderers draw the child as it is. */
#define TC_TYPE_RECORDED_BIN (tc_recorded_bin_get_type())
G_DECLARE_FINAL_TYPE(TcRecordedBin, tc_recorded_bin, TC, RECORDED_BIN, GtkWidget)
GtkWidget *tc_recorded_bin_new(GtkWidget *child);

G_END_DECLS

G_BEGIN_DECLS

/* YUV frames to RGBA GL textures through a shader, in a GL context of
 * GDK's (shared with GTK's GL renderer). Main thread only; reference
 * counted, since the textures it hands out keep it alive. */
typedef struct _TcGLFrameConverter TcGLFrameConverter;

/* NULL, and why not in `why_not` (free with g_free), without a usable GL context. */
TcGLFrameConverter *tc_gl_frame_converter_new(char **why_not);
TcGLFrameConverter *tc_gl_frame_converter_ref(TcGLFrameConverter *self);
void tc_gl_frame_converter_unref(TcGLFrameConverter *self);
/* Uploads an I420 frame's planes (FALSE for any other format). */
gboolean tc_gl_frame_converter_upload(TcGLFrameConverter *self, GstVideoFrame *frame);
/* The last uploaded frame converted to RGB at width × height; NULL before any. */
GdkTexture *tc_gl_frame_converter_render(TcGLFrameConverter *self, int width, int height);
/* GL_RENDERER of its context, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". */
const char *tc_gl_frame_converter_renderer(TcGLFrameConverter *self);

/* The OpenGL renderer GDK would draw with on the default display, e.g.
 * "llvmpipe (LLVM 15.0.6, 256 bits)"; NULL without GL. Free with g_free. */
char *tc_gl_renderer_name(void);

G_END_DECLS
