/* The depth reducer: 10-bit and 4:4:4 / 4:2:2 frames to 8-bit 4:2:0 (I420),
 * as playbin's video filter, right after the decoder, so playsink's scaler
 * and our converter take their fast 8-bit paths.
 *
 * Why: a picture is shown at most at the window's size, and GStreamer 1.22's
 * generic converter handles 10-bit input by unpacking each full-size frame
 * to 16 bits per component (AYUV64, 16 MB per 1080p frame) before scaling
 * and converting it; that was most of the CPU a High 4:4:4 10-bit clip cost.
 * Here each 10-bit sample loses its two low bits (rounded), and 4:4:4 or
 * 4:2:2 chroma is averaged over 2×2 or 2×1 samples, in one pass; the
 * colorimetry is kept, so the colours are converted as before downstream.
 * Other formats pass through untouched. */

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "depth-reducer.h"

typedef struct {
    GstVideoFilter parent;
} TcDepthReducer;

typedef struct {
    GstVideoFilterClass parent_class;
} TcDepthReducerClass;

G_DEFINE_TYPE(TcDepthReducer, tc_depth_reducer, GST_TYPE_VIDEO_FILTER)

/* What this element makes I420 of: what decoders give for High 10, High
 * 4:2:2 and High 4:4:4 (and VP9/AV1 profiles 1-2), 8-bit 4:4:4 and 4:2:2. */
static const gchar *const reduced_formats[] = {"Y444_10LE", "I422_10LE", "I420_10LE", "Y444", "Y42B"};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS("video/x-raw(ANY)"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS("video/x-raw(ANY)"));

static gboolean is_reduced(const gchar *format) {
    for (guint i = 0; format != NULL && i < G_N_ELEMENTS(reduced_formats); i++)
        if (g_str_equal(format, reduced_formats[i])) return TRUE;
    return FALSE;
}

/* Where the averaged chroma sits: centred between the samples it came from
 * vertically (and horizontally too, from 4:4:4); 4:2:0 input keeps its own. */
static const gchar *reduced_chroma_site(const gchar *format, const gchar *site) {
    if (g_str_has_prefix(format, "Y444")) return "jpeg";
    if (g_str_equal(format, "I422_10LE") || g_str_equal(format, "Y42B")) return "mpeg2";
    return site;
}

/* Downstream of a reduced format sees I420, the same size and colorimetry;
 * upstream of I420 may be any reduced format. Memory features (ANY caps)
 * other than system memory are not ours: those structures pass as they are. */
static GstCaps *transform_caps(GstBaseTransform *transform, GstPadDirection direction, GstCaps *caps,
                               GstCaps *filter) {
    GstCaps *result = gst_caps_new_empty();
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        GstStructure *structure = gst_caps_get_structure(caps, i);
        GstCapsFeatures *features = gst_caps_get_features(caps, i);
        const gchar *format = gst_structure_get_string(structure, "format");
        gboolean system_memory = features == NULL || gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
        GstStructure *changed = NULL;
        const gchar *interlace = gst_structure_get_string(structure, "interlace-mode");
        /* Averaging rows would mix an interlaced picture's two fields. */
        gboolean mixes_fields = interlace != NULL && !g_str_equal(interlace, "progressive")
            && format != NULL && !g_str_equal(format, "I420_10LE");
        if (system_memory && direction == GST_PAD_SINK && is_reduced(format) && !mixes_fields) {
            changed = gst_structure_copy(structure);
            const gchar *site = reduced_chroma_site(format, gst_structure_get_string(structure, "chroma-site"));
            gst_structure_set(changed, "format", G_TYPE_STRING, "I420", NULL);
            if (site != NULL) gst_structure_set(changed, "chroma-site", G_TYPE_STRING, site, NULL);
            else gst_structure_remove_field(changed, "chroma-site");
        } else if (system_memory && direction == GST_PAD_SRC && (format == NULL || g_str_equal(format, "I420"))) {
            changed = gst_structure_copy(structure);
            GValue list = G_VALUE_INIT;
            gst_value_list_init(&list, G_N_ELEMENTS(reduced_formats));
            for (guint f = 0; f < G_N_ELEMENTS(reduced_formats); f++) {
                GValue value = G_VALUE_INIT;
                g_value_init(&value, G_TYPE_STRING);
                g_value_set_static_string(&value, reduced_formats[f]);
                gst_value_list_append_and_take_value(&list, &value);
            }
            gst_structure_take_value(changed, "format", &list);
            gst_structure_remove_field(changed, "chroma-site");
        }
        /* The unchanged structure too, after the changed one (passthrough, or
         * an input that is not ours to reduce). */
        if (changed != NULL)
            gst_caps_append_structure_full(result, changed, features ? gst_caps_features_copy(features) : NULL);
        gst_caps_append_structure_full(result, gst_structure_copy(structure),
                                       features ? gst_caps_features_copy(features) : NULL);
    }
    if (filter != NULL) {
        GstCaps *filtered = gst_caps_intersect_full(filter, result, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref(result);
        result = filtered;
    }
    (void)transform;
    return result;
}

static gboolean set_info(GstVideoFilter *filter, GstCaps *in_caps, GstVideoInfo *in_info, GstCaps *out_caps,
                         GstVideoInfo *out_info) {
    (void)in_caps;
    (void)out_caps;
    GstVideoFormat in = GST_VIDEO_INFO_FORMAT(in_info), out = GST_VIDEO_INFO_FORMAT(out_info);
    if (in == out) {
        gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(filter), TRUE);
        return TRUE;
    }
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(filter), FALSE);
    return out == GST_VIDEO_FORMAT_I420 && is_reduced(gst_video_format_to_string(in))
        && GST_VIDEO_INFO_WIDTH(in_info) == GST_VIDEO_INFO_WIDTH(out_info)
        && GST_VIDEO_INFO_HEIGHT(in_info) == GST_VIDEO_INFO_HEIGHT(out_info);
}

static void reduce_luma(const GstVideoFrame *in, GstVideoFrame *out, gboolean wide) {
    const guint8 *source = GST_VIDEO_FRAME_COMP_DATA(in, 0);
    guint8 *target = GST_VIDEO_FRAME_COMP_DATA(out, 0);
    gint in_stride = GST_VIDEO_FRAME_COMP_STRIDE(in, 0), out_stride = GST_VIDEO_FRAME_COMP_STRIDE(out, 0);
    gint width = GST_VIDEO_FRAME_WIDTH(out), height = GST_VIDEO_FRAME_HEIGHT(out);
    for (gint y = 0; y < height; y++) {
        guint8 *row = target + (gsize)y * out_stride;
        if (!wide) {
            memcpy(row, source + (gsize)y * in_stride, width);
            continue;
        }
        const guint16 *wide_row = (const guint16 *)(source + (gsize)y * in_stride);
        for (gint x = 0; x < width; x++) {
            guint value = (wide_row[x] + 2u) >> 2;
            row[x] = value > 255 ? 255 : value;
        }
    }
}

/* One output row of chroma: each sample the rounded mean of `across` × 2
 * input samples (rows `top` and `bottom`, the same row when the input is not
 * taller), brought to 8 bits. Inlined with constant `across` and `wide`, so
 * the compiler vectorises each case; the last group may be cut short by an
 * odd width, and repeats its last column. */
static inline __attribute__((always_inline)) void reduce_chroma_row(
    const guint8 *top, const guint8 *bottom, guint8 *out, gint in_width, gint width, const gint across,
    const gboolean wide) {
    const guint shift = (wide ? 2 : 0) + 2, rounding = 1u << (shift - 1);
    const gint whole = MIN(in_width / across, width);
    for (gint x = 0; x < whole; x++) {
        gint left = x * across, right = left + across - 1;
        guint sum = wide ? (guint)((const guint16 *)top)[left] + ((const guint16 *)top)[right]
                               + ((const guint16 *)bottom)[left] + ((const guint16 *)bottom)[right]
                         : (guint)top[left] + top[right] + bottom[left] + bottom[right];
        guint value = (sum + rounding) >> shift;
        out[x] = value > 255 ? 255 : value;
    }
    for (gint x = whole; x < width; x++) {
        gint last = in_width - 1;
        guint sum = wide ? 2u * ((const guint16 *)top)[last] + 2u * ((const guint16 *)bottom)[last]
                         : 2u * top[last] + 2u * bottom[last];
        guint value = (sum + rounding) >> shift;
        out[x] = value > 255 ? 255 : value;
    }
}

/* Chroma component `component`: the input's samples covering each output
 * sample (1, 2 or 4 of them), averaged with rounding and brought to 8 bits. */
static void reduce_chroma(const GstVideoFrame *in, GstVideoFrame *out, gint component, gboolean wide) {
    const guint8 *source = GST_VIDEO_FRAME_COMP_DATA(in, component);
    guint8 *target = GST_VIDEO_FRAME_COMP_DATA(out, component);
    gint in_stride = GST_VIDEO_FRAME_COMP_STRIDE(in, component);
    gint out_stride = GST_VIDEO_FRAME_COMP_STRIDE(out, component);
    gint in_width = GST_VIDEO_FRAME_COMP_WIDTH(in, component), in_height = GST_VIDEO_FRAME_COMP_HEIGHT(in, component);
    gint width = GST_VIDEO_FRAME_COMP_WIDTH(out, component), height = GST_VIDEO_FRAME_COMP_HEIGHT(out, component);
    /* How many input samples one output sample covers, across and down: 1 or 2. */
    gint across = in_width > width ? 2 : 1, down = in_height > height ? 2 : 1;
    for (gint y = 0; y < height; y++) {
        const guint8 *top = source + (gsize)MIN(y * down, in_height - 1) * in_stride;
        const guint8 *bottom = source + (gsize)MIN(y * down + down - 1, in_height - 1) * in_stride;
        guint8 *row = target + (gsize)y * out_stride;
        if (across == 2 && wide) reduce_chroma_row(top, bottom, row, in_width, width, 2, TRUE);
        else if (across == 2) reduce_chroma_row(top, bottom, row, in_width, width, 2, FALSE);
        else if (wide) reduce_chroma_row(top, bottom, row, in_width, width, 1, TRUE);
        else reduce_chroma_row(top, bottom, row, in_width, width, 1, FALSE);
    }
}

static GstFlowReturn transform_frame(GstVideoFilter *filter, GstVideoFrame *in, GstVideoFrame *out) {
    (void)filter;
    gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH(in->info.finfo, 0) > 8;
    reduce_luma(in, out, wide);
    reduce_chroma(in, out, 1, wide);
    reduce_chroma(in, out, 2, wide);
    return GST_FLOW_OK;
}

static void tc_depth_reducer_class_init(TcDepthReducerClass *klass) {
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "Depth reducer", "Filter/Converter/Video",
                                          "10-bit, 4:4:4 and 4:2:2 video to 8-bit 4:2:0 for display", "Trackcast");
    GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = transform_caps;
    GST_BASE_TRANSFORM_CLASS(klass)->passthrough_on_same_caps = TRUE;
    GST_VIDEO_FILTER_CLASS(klass)->set_info = set_info;
    GST_VIDEO_FILTER_CLASS(klass)->transform_frame = transform_frame;
}

static void tc_depth_reducer_init(TcDepthReducer *self) { (void)self; }

GstElement *tc_depth_reducer_new(void) { return g_object_new(tc_depth_reducer_get_type(), NULL); }
