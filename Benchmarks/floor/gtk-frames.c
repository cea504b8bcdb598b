/* The floor for "GTK drawing a video frame": the least a C program needs to
 * show a ready-made WIDTH×HEIGHT BGRx frame 30 times a second in a GTK 4
 * window, drawn as Trackcast draws one with the cairo renderer (a cairo
 * node painting a raster-source pattern of the image, nothing drawn under
 * it). Two frames alternate, so every draw is a new one. After 30 frames to
 * settle, prints the CPU per frame over the next 300 and exits:
 * "cpu-per-frame-ms N". Usage: gtk-frames WIDTH HEIGHT */
#include <cairo-xlib.h>
#include <gdk/x11/gdkx.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define SETTLING_FRAMES 30
#define MEASURED_FRAMES 300

static cairo_surface_t *frames[2];
static int frame_count;
static double cpu_at_start;
static GtkWidget *area;

static double process_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

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

#define FLOOR_TYPE_FRAME_AREA (floor_frame_area_get_type())
G_DECLARE_FINAL_TYPE(FloorFrameArea, floor_frame_area, FLOOR, FRAME_AREA, GtkWidget)
struct _FloorFrameArea {
    GtkWidget parent_instance;
};
G_DEFINE_FINAL_TYPE(FloorFrameArea, floor_frame_area, GTK_TYPE_WIDGET)

static void frame_area_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
    cairo_surface_t *frame = frames[frame_count & 1];
    int width = cairo_image_surface_get_width(frame), height = cairo_image_surface_get_height(frame);
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height));
    cairo_pattern_t *pattern = cairo_pattern_create_raster_source(cairo_surface_reference(frame), CAIRO_CONTENT_COLOR,
                                                                  width, height);
    cairo_raster_source_pattern_set_acquire(pattern, frame_acquire, frame_release);
    cairo_raster_source_pattern_set_copy(pattern, frame_copy);
    cairo_raster_source_pattern_set_finish(pattern, frame_finish);
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST);
    cairo_set_source(cr, pattern);
    cairo_pattern_destroy(pattern);
    cairo_paint(cr);
    cairo_destroy(cr);
}

static void floor_frame_area_class_init(FloorFrameAreaClass *klass) {
    GTK_WIDGET_CLASS(klass)->snapshot = frame_area_snapshot;
}
static void floor_frame_area_init(FloorFrameArea *self) {}

static gboolean next_frame(gpointer data) {
    frame_count++;
    if (frame_count == SETTLING_FRAMES) cpu_at_start = process_cpu_seconds();
    if (frame_count == SETTLING_FRAMES + MEASURED_FRAMES) {
        printf("cpu-per-frame-ms %.3f\n", (process_cpu_seconds() - cpu_at_start) / MEASURED_FRAMES * 1000);
        fflush(stdout);
        exit(0);
    }
    gtk_widget_queue_draw(area);
    return G_SOURCE_CONTINUE;
}

static cairo_surface_t *make_frame(int width, int height, int seed) {
    cairo_surface_t *frame = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    unsigned char *data = cairo_image_surface_get_data(frame);
    int stride = cairo_image_surface_get_stride(frame);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < stride; x++) data[y * stride + x] = (unsigned char)(x * 7 + y * 3 + seed);
    cairo_surface_mark_dirty(frame);
    return frame;
}

/* cairo 1.16 unmaps its X shared-memory pool whenever the pool empties, so
 * a program whose only shared-memory image is the frame GTK uploads maps a
 * fresh segment, and faults in its pages, every frame (about 2 ms here). A
 * small image kept in a large pool avoids that; Trackcast's own main thread
 * shows no such faults, so the floor does not pay them either. */
static void keep_shared_memory_pool(void) {
    GdkDisplay *display = gdk_display_get_default();
    if (!GDK_IS_X11_DISPLAY(display)) return;
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    int screen = DefaultScreen(xdisplay);
    cairo_surface_t *root = cairo_xlib_surface_create(xdisplay, DefaultRootWindow(xdisplay),
                                                      DefaultVisual(xdisplay, screen), 1, 1);
    cairo_surface_t *large = cairo_surface_create_similar_image(root, CAIRO_FORMAT_RGB24, DisplayWidth(xdisplay, screen),
                                                                DisplayHeight(xdisplay, screen));
    cairo_surface_create_similar_image(root, CAIRO_FORMAT_RGB24, 16, 16); /* kept: the pool stays */
    cairo_surface_destroy(large);
}

int main(int argc, char **argv) {
    int width = argc > 2 ? atoi(argv[1]) : 946, height = argc > 2 ? atoi(argv[2]) : 532;
    gtk_init();
    keep_shared_memory_pool();
    frames[0] = make_frame(width, height, 0);
    frames[1] = make_frame(width, height, 100);
    GtkCssProvider *provider = gtk_css_provider_new();
    gtk_css_provider_load_from_data(provider, "window { background: none; }", -1);
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    GtkWidget *window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(window), "Floor");
    area = g_object_new(FLOOR_TYPE_FRAME_AREA, NULL);
    gtk_widget_set_size_request(area, width, height);
    gtk_window_set_child(GTK_WINDOW(window), area);
    gtk_window_present(GTK_WINDOW(window));
    g_timeout_add(1000 / 30, next_frame, NULL);
    while (TRUE)
        g_main_context_iteration(NULL, TRUE);
}
