/* Decoding threads chosen by the stream: libav's decoders (avdec_*) start
 * a frame thread per core by default ("max-threads" 0). Each thread keeps
 * its own frames in flight, and handing frames between them costs CPU: a
 * 1080p30 H.264 stream decoded on one thread took 1-2 ms a frame less CPU
 * here than on two (docs/BENCHMARKS.md), while one core decodes it several
 * times faster than it plays. Bigger or faster streams (4K, 60 fps) keep
 * the threads, for the headroom they need. The choice is made from the
 * caps the decoder is opened with, so it follows a stream that changes
 * size. */

#include <gst/gst.h>
#include <string.h>

#include "trackcast-video.h"

/* Up to 1080p30's pixel rate: one thread. */
static const gdouble single_thread_pixel_rate = 1920.0 * 1080.0 * 30.0;

/* The threads for a stream of these caps: 1 at most single_thread_pixel_rate,
 * else 0 (libav's choice, a thread per core); 0 too when the caps do not
 * say size and rate. */
static gint threads_for_caps(const GstCaps *caps) {
    const GstStructure *structure = gst_caps_get_size(caps) > 0 ? gst_caps_get_structure(caps, 0) : NULL;
    gint width = 0, height = 0, rate_n = 0, rate_d = 0;
    if (structure == NULL || !gst_structure_get_int(structure, "width", &width)
        || !gst_structure_get_int(structure, "height", &height)
        || !gst_structure_get_fraction(structure, "framerate", &rate_n, &rate_d) || width <= 0 || height <= 0
        || rate_n <= 0 || rate_d <= 0)
        return 0;
    gdouble pixel_rate = (gdouble)width * height * rate_n / rate_d;
    return pixel_rate <= single_thread_pixel_rate ? 1 : 0;
}

/* Runs before the decoder handles the caps (set_format opens the codec
 * with "max-threads" as it is then). */
static GstPadProbeReturn on_sink_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    GstElement *decoder = gst_pad_get_parent_element(pad);
    if (decoder == NULL) return GST_PAD_PROBE_OK;
    gint threads = threads_for_caps(caps);
    gint current = -1;
    g_object_get(decoder, "max-threads", &current, NULL);
    if (current != threads) {
        GST_INFO_OBJECT(decoder, "max-threads %d for %" GST_PTR_FORMAT, threads, caps);
        g_object_set(decoder, "max-threads", threads, NULL);
    }
    gst_object_unref(decoder);
    return GST_PAD_PROBE_OK;
}

gboolean tc_video_decoder_fit_threads(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    const gchar *klass = factory != NULL ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(element), "max-threads");
    if (klass == NULL || strstr(klass, "Decoder") == NULL || strstr(klass, "Video") == NULL || spec == NULL
        || spec->value_type != G_TYPE_INT)
        return FALSE;
    GstPad *sink = gst_element_get_static_pad(element, "sink");
    if (sink == NULL) return FALSE;
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_sink_event, NULL, NULL);
    gst_object_unref(sink);
    return TRUE;
}
