/* The frame reducer: frames made what is drawn, as playbin's video filter,
 * right after the decoder. 10-bit and 4:4:4 / 4:2:2 frames become 8-bit
 * 4:2:0 (I420), and frames bigger than the drawn size are scaled down to
 * it, in one pass over the decoded frame; a scaled frame becomes the BGRA
 * the CPU path's sink takes in that pass too, so playsink's scaler and our
 * converter pass it through.
 *
 * Why: a picture is shown at most at the window's size. GStreamer 1.22's
 * generic converter handles 10-bit input by unpacking each full-size frame
 * to 16 bits per component (AYUV64, 16 MB per 1080p frame) before scaling,
 * and its scaler's two-tap resampler has no vectorised (ORC SSE) rule, so
 * scaling even 8-bit 1080p frames ran as plain C over every row. Here each
 * plane is averaged over boxes of whole samples (2×2 for a 1080p frame in
 * a window about half its size, vectorised by the compiler), which also
 * brings 10-bit samples to 8 bits (rounded) and 4:4:4 or 4:2:2 chroma to
 * 4:2:0 (4:4:4 chroma in boxes of 4×4 from the middle 2×2 of each:
 * half its rows read, the same centre), and the rest of the way (less
 * than 2×) is bilinear on those averages, from rows kept for it (8-bit
 * rows not averaged are read where they are); each output row is
 * converted to BGRA as soon as it is made (with the frame's own matrix
 * and range), so no I420 frame is written and read again. Frames not scaled keep their
 * colorimetry and are converted downstream. Other formats, and interlaced frames
 * (averaging rows would mix their fields; 10-bit 4:2:0 ones are only
 * brought to 8 bits), pass through to playsink's scaler. */

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include <string.h>

#include "frame-reducer.h"
#include "trackcast-video.h"

/* Boxes are at most this many samples across and down, so a column's sum
 * of 10-bit samples fits 16 bits and a box's 32; a picture scaled down
 * further is a thumbnail, and bilinear takes it the rest of the way. */
#define MAX_BOX 64

/* How one plane is made: the input's samples averaged over boxes of
 * box_x × box_y (an intermediate plane of mid_width × mid_height, made a
 * row at a time as the output needs it), then resampled bilinearly to the
 * output's size. */
typedef struct PlanePlan {
    gint in_width, in_height, out_width, out_height;
    gint box_x, box_y, mid_width, mid_height;
    /* A box's sum to an 8-bit average: (sum + divisor / 2) >> shift when
     * the divisor is a power of two, else times multiplier >> 32. */
    guint divisor, shift;
    gboolean by_shift;
    guint64 multiplier;
    /* Per output column: its left intermediate sample and the right one's
     * weight (of 256), the right one always inside the row (the last column
     * is the one before it at full weight); unused when mid_width ==
     * out_width. */
    gint32 *column;
    guint16 *column_weight;
    /* The same for the AVX2 resampler, by groups of four columns: where
     * the group's 16 bytes are read from, which of them each column's pair
     * is (as two 16-bit words), and the pair's weights (of 256); the
     * first `grouped` columns, whose reads stay inside the row. */
    gint32 *group_start;
    guint8 *group_shuffle;
    gint16 *group_weights;
    gint grouped;
    void (*resample)(const struct PlanePlan *, const guint8 *, guint8 *);
    /* Chroma from 4:4:4: a 4×4 box averages its middle 2×2 samples. */
    gboolean middle_only;
    /* Two intermediate rows and which rows they hold (-1: none yet this
     * frame; unused for 8-bit boxes of one sample, whose rows are the
     * input's own), and a vertically blended row; column sums of a box's rows. */
    guint8 *rows[2];
    gint row_index[2];
    guint8 *blended;
    guint16 *sums;
} PlanePlan;

typedef struct {
    GstVideoFilter parent;
    /* The drawn size (0: as decoded): set from the main thread, read while
     * negotiating, under the object lock. */
    gint drawn_width, drawn_height;
    /* Streaming thread: Y, U and V, made in set_info; for BGRA output,
     * a row of each, the colour matrix's factors and the row converter
     * (yuv_to_bgra, or its AVX2 version where the CPU has it). */
    PlanePlan planes[3];
    guint8 *converted_rows[3];
    gint32 factors[6];
    void (*convert)(const guint8 *, const guint8 *, const guint8 *, guint32 *, gint, const gint32 *);
    /* What the decoder is offered to decode into when frames are reduced
     * (propose_allocation). */
    GstAllocator *allocator;
} TcFrameReducer;

typedef struct {
    GstVideoFilterClass parent_class;
} TcFrameReducerClass;

G_DEFINE_TYPE(TcFrameReducer, tc_frame_reducer, GST_TYPE_VIDEO_FILTER)

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

/* The size a width × height frame of that pixel aspect is drawn at in a
 * drawn_width × drawn_height picture, with square pixels; FALSE when it is
 * not smaller than the frame's display size (GTK scales small frames up). */
static gboolean scaled_size(const GstStructure *structure, gint drawn_width, gint drawn_height, gint *width,
                            gint *height) {
    gint in_width = 0, in_height = 0, par_n = 1, par_d = 1;
    if (drawn_width <= 0 || drawn_height <= 0 || !gst_structure_get_int(structure, "width", &in_width)
        || !gst_structure_get_int(structure, "height", &in_height) || in_width <= 0 || in_height <= 0)
        return FALSE;
    if (!gst_structure_get_fraction(structure, "pixel-aspect-ratio", &par_n, &par_d) || par_n <= 0 || par_d <= 0)
        par_n = par_d = 1;
    double display_width = (double)in_width * par_n / par_d;
    double scale = MIN(drawn_width / display_width, (double)drawn_height / in_height);
    if (scale >= 1) return FALSE;
    *width = CLAMP((gint)(display_width * scale + 0.5), 1, drawn_width);
    *height = CLAMP((gint)(in_height * scale + 0.5), 1, drawn_height);
    return *width != in_width || *height != in_height || par_n != par_d;
}

/* Caps without colorimetry mean the one usual for their format and size
 * (BT.709 for HD, BT.601 below): a frame scaled below HD keeps its own,
 * said outright. */
static void keep_implied_colorimetry(const GstStructure *structure, GstStructure *scaled) {
    gint width = 0, height = 0;
    GstVideoFormat format = gst_video_format_from_string(gst_structure_get_string(structure, "format"));
    GstVideoInfo info;
    if (gst_structure_has_field(structure, "colorimetry") || format == GST_VIDEO_FORMAT_UNKNOWN
        || !gst_structure_get_int(structure, "width", &width) || !gst_structure_get_int(structure, "height", &height)
        || !gst_video_info_set_format(&info, format, width, height))
        return;
    gchar *colorimetry = gst_video_colorimetry_to_string(&info.colorimetry);
    if (colorimetry != NULL) gst_structure_set(scaled, "colorimetry", G_TYPE_STRING, colorimetry, NULL);
    g_free(colorimetry);
}

/* Whether yuv_to_bgra can convert frames of these (scaled) caps. */
static gboolean converts_to_bgra(const GstStructure *structure) {
    GstVideoColorimetry colorimetry;
    const gchar *text = gst_structure_get_string(structure, "colorimetry");
    gdouble kr, kb;
    return text != NULL && gst_video_colorimetry_from_string(&colorimetry, text)
        && gst_video_color_matrix_get_Kr_Kb(colorimetry.matrix, &kr, &kb);
}

/* Downstream of a reduced format sees I420 of the same colorimetry, at the
 * drawn size when the frame is bigger (and then BGRA first); downstream of
 * I420, only that size. Upstream of I420 or BGRA may be any reduced format
 * or I420, of any size. Memory features (ANY caps) other than system
 * memory are not ours: those structures pass as they are. */
static GstCaps *transform_caps(GstBaseTransform *transform, GstPadDirection direction, GstCaps *caps,
                               GstCaps *filter) {
    TcFrameReducer *self = (TcFrameReducer *)transform;
    GST_OBJECT_LOCK(self);
    gint drawn_width = self->drawn_width, drawn_height = self->drawn_height;
    GST_OBJECT_UNLOCK(self);
    GstCaps *result = gst_caps_new_empty();
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        GstStructure *structure = gst_caps_get_structure(caps, i);
        GstCapsFeatures *features = gst_caps_get_features(caps, i);
        const gchar *format = gst_structure_get_string(structure, "format");
        gboolean system_memory = features == NULL || gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
        GstStructure *changed = NULL;
        const gchar *interlace = gst_structure_get_string(structure, "interlace-mode");
        gboolean progressive = interlace == NULL || g_str_equal(interlace, "progressive");
        gboolean handled = format != NULL && (is_reduced(format) || g_str_equal(format, "I420"));
        gint width = 0, height = 0;
        if (system_memory && direction == GST_PAD_SINK && handled && progressive
            && scaled_size(structure, drawn_width, drawn_height, &width, &height)) {
            changed = gst_structure_copy(structure);
            gst_structure_set(changed, "format", G_TYPE_STRING, "I420", "width", G_TYPE_INT, width, "height",
                              G_TYPE_INT, height, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
            keep_implied_colorimetry(structure, changed);
        } else if (system_memory && direction == GST_PAD_SINK && is_reduced(format)
                   && (progressive || g_str_equal(format, "I420_10LE"))) {
            changed = gst_structure_copy(structure);
            gst_structure_set(changed, "format", G_TYPE_STRING, "I420", NULL);
        } else if (system_memory && direction == GST_PAD_SRC
                   && (format == NULL || g_str_equal(format, "I420") || g_str_equal(format, "BGRA"))) {
            changed = gst_structure_copy(structure);
            GValue list = G_VALUE_INIT;
            gst_value_list_init(&list, G_N_ELEMENTS(reduced_formats) + 1);
            for (guint f = 0; f <= G_N_ELEMENTS(reduced_formats); f++) {
                GValue value = G_VALUE_INIT;
                g_value_init(&value, G_TYPE_STRING);
                g_value_set_static_string(&value, f < G_N_ELEMENTS(reduced_formats) ? reduced_formats[f] : "I420");
                gst_value_list_append_and_take_value(&list, &value);
            }
            gst_structure_take_value(changed, "format", &list);
            gst_structure_remove_fields(changed, "chroma-site", "width", "height", "pixel-aspect-ratio", NULL);
        }
        if (changed != NULL && direction == GST_PAD_SINK) {
            const gchar *site = reduced_chroma_site(format, gst_structure_get_string(structure, "chroma-site"));
            if (site != NULL) gst_structure_set(changed, "chroma-site", G_TYPE_STRING, site, NULL);
            else gst_structure_remove_field(changed, "chroma-site");
        }
        /* Scaled, BGRA first (what the CPU path's sink takes), converted in
         * the same pass, when the colour matrix is one we know. */
        if (changed != NULL && direction == GST_PAD_SINK && width > 0 && converts_to_bgra(changed)) {
            GstStructure *bgra = gst_structure_copy(changed);
            gst_structure_set(bgra, "format", G_TYPE_STRING, "BGRA", NULL);
            gst_structure_remove_fields(bgra, "colorimetry", "chroma-site", NULL);
            gst_caps_append_structure_full(result, bgra, features ? gst_caps_features_copy(features) : NULL);
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
    return result;
}

static inline guint8 to_byte(guint value) { return value > 255 ? 255 : (guint8)value; }

/* The loops over a row's samples: plain loops the compiler vectorises,
 * made twice on x86-64 (for AVX2, chosen at load time where the CPU has
 * it, and for the baseline's SSE2). */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define ROW_LOOP static __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef ROW_LOOP
#define ROW_LOOP static
#endif

/* 2×2 boxes of 8-bit samples: `count` averages of two columns of two rows. */
ROW_LOOP void average_pairs_of_rows(const guint8 *restrict top, const guint8 *restrict bottom, guint8 *restrict out,
                                    gint count) {
    for (gint x = 0; x < count; x++)
        out[x] = (guint8)((top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1] + 2u) >> 2);
}

#if defined(__x86_64__)
#include <immintrin.h>
/* The same with AVX2, 32 a step: each row's neighbours summed by one
 * multiply-add of bytes by ones (the compiler's version of the loop above
 * separates even and odd bytes with shuffles first); the rest by that loop. */
__attribute__((target("avx2"))) static void average_pairs_avx2(const guint8 *restrict top,
                                                              const guint8 *restrict bottom, guint8 *restrict out,
                                                              gint count) {
    const __m256i ones = _mm256_set1_epi8(1), rounding = _mm256_set1_epi16(2);
    gint x = 0;
    for (; x + 32 <= count; x += 32) {
        __m256i sums[2];
        for (gint half = 0; half < 2; half++) {
            __m256i upper = _mm256_loadu_si256((const __m256i *)(top + 2 * x + 32 * half));
            __m256i lower = _mm256_loadu_si256((const __m256i *)(bottom + 2 * x + 32 * half));
            sums[half] = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(_mm256_maddubs_epi16(upper, ones),
                                                                             _mm256_maddubs_epi16(lower, ones)),
                                                            rounding), 2);
        }
        /* Packed by lanes (0-7, 16-23 | 8-15, 24-31): put in order. */
        _mm256_storeu_si256((__m256i *)(out + x),
                            _mm256_permute4x64_epi64(_mm256_packus_epi16(sums[0], sums[1]), 0xD8));
    }
    average_pairs_of_rows(top + 2 * x, bottom + 2 * x, out + x, count - x);
}
#endif

static void average_pairs(const guint8 *top, const guint8 *bottom, guint8 *out, gint count) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        average_pairs_avx2(top, bottom, out, count);
        return;
    }
#endif
    average_pairs_of_rows(top, bottom, out, count);
}

/* The same of 10-bit samples, brought to 8 bits. */
ROW_LOOP void average_wide_pairs(const guint16 *restrict top, const guint16 *restrict bottom, guint8 *restrict out,
                                 gint count) {
    for (gint x = 0; x < count; x++)
        out[x] = to_byte((top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1] + 8u) >> 4);
}

/* The middle two of each four columns of two rows: 2×2 of a 4×4 box. */
ROW_LOOP void average_middles(const guint8 *restrict upper, const guint8 *restrict lower, guint8 *restrict out,
                              gint count) {
    for (gint x = 0; x < count; x++)
        out[x] = (guint8)((upper[4 * x + 1] + upper[4 * x + 2] + lower[4 * x + 1] + lower[4 * x + 2] + 2u) >> 2);
}

ROW_LOOP void average_wide_middles(const guint16 *restrict upper, const guint16 *restrict lower, guint8 *restrict out,
                                   gint count) {
    for (gint x = 0; x < count; x++)
        out[x] = to_byte((upper[4 * x + 1] + upper[4 * x + 2] + lower[4 * x + 1] + lower[4 * x + 2] + 8u) >> 4);
}

/* 10-bit samples to 8 bits, rounded. */
ROW_LOOP void narrow(const guint16 *restrict row, guint8 *restrict out, gint count) {
    for (gint x = 0; x < count; x++) out[x] = to_byte((row[x] + 2u) >> 2);
}

/* Column sums of a box's rows: in 16 bits, which hold 64 rows of 10-bit
 * samples (MAX_BOX). */
ROW_LOOP void add_row(guint16 *restrict sums, const guint8 *restrict row, gint count) {
    for (gint x = 0; x < count; x++) sums[x] = (guint16)(sums[x] + row[x]);
}

ROW_LOOP void add_wide_row(guint16 *restrict sums, const guint16 *restrict row, gint count) {
    for (gint x = 0; x < count; x++) sums[x] = (guint16)(sums[x] + row[x]);
}

/* `count` boxes `across` columns wide from column sums, divided by a power
 * of two; the common widths (2 and 4) spelled out, so they vectorise. */
ROW_LOOP void average_sums(const guint16 *restrict sums, guint8 *restrict out, gint count, gint across, guint shift) {
    guint half = (1u << shift) >> 1;
    if (across == 2) {
        for (gint x = 0; x < count; x++) out[x] = to_byte((sums[2 * x] + sums[2 * x + 1] + half) >> shift);
    } else if (across == 4) {
        for (gint x = 0; x < count; x++)
            out[x] = to_byte((sums[4 * x] + sums[4 * x + 1] + sums[4 * x + 2] + sums[4 * x + 3] + half) >> shift);
    } else {
        for (gint x = 0; x < count; x++) {
            guint sum = 0;
            for (gint c = 0; c < across; c++) sum += sums[x * across + c];
            out[x] = to_byte((sum + half) >> shift);
        }
    }
}

/* Two rows mixed, `weight` of 256 from the lower; in 16 bits (255 × 256
 * and the rounding fit), twice the lanes of 32. */
ROW_LOOP void blend_rows(const guint8 *restrict upper, const guint8 *restrict lower, guint8 *restrict out, gint count,
                         guint16 weight) {
    guint16 keep = (guint16)(256 - weight);
    for (gint x = 0; x < count; x++)
        out[x] = (guint8)((guint16)((guint16)(upper[x] * keep) + (guint16)(lower[x] * weight) + 128u) >> 8);
}

/* Each output sample between two neighbours of `source`, per its column's
 * left neighbour and the right one's weight of 256, from output column `from` on. */
ROW_LOOP void resample_columns_from(const PlanePlan *plan, const guint8 *restrict source, guint8 *restrict out,
                                    gint from) {
    const gint32 *restrict column = plan->column;
    const guint16 *restrict weight = plan->column_weight;
    for (gint x = from; x < plan->out_width; x++) {
        guint left = source[column[x]], right = source[column[x] + 1];
        out[x] = (guint8)((left * (256u - weight[x]) + right * weight[x] + 128u) >> 8);
    }
}

static void resample_columns(const PlanePlan *plan, const guint8 *source, guint8 *out) {
    resample_columns_from(plan, source, out, 0);
}

#if defined(__x86_64__)
/* The same with AVX2, 16 samples a step: each group of four takes its
 * pairs out of 16 bytes read at its start with one byte shuffle (as
 * 16-bit words), and weighs them with one multiply-add (the compiler makes
 * a load per sample of the loop above; a gather of the pairs measured
 * slower); the columns after `grouped` by the loop above. */
__attribute__((target("avx2"))) static void resample_columns_avx2(const PlanePlan *plan, const guint8 *restrict source,
                                                                 guint8 *restrict out) {
    const __m256i rounding = _mm256_set1_epi32(128);
    gint x = 0;
    for (; x + 16 <= plan->grouped; x += 16) {
        __m256i mixed[2];
        for (gint half = 0; half < 2; half++) {
            gint group = x / 4 + 2 * half;
            __m256i bytes = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(source + plan->group_start[group]))),
                _mm_loadu_si128((const __m128i *)(source + plan->group_start[group + 1])), 1);
            __m256i pairs = _mm256_shuffle_epi8(bytes, _mm256_loadu_si256((const __m256i *)(plan->group_shuffle + 16 * group)));
            __m256i sums = _mm256_madd_epi16(pairs, _mm256_loadu_si256((const __m256i *)(plan->group_weights + 8 * group)));
            mixed[half] = _mm256_srli_epi32(_mm256_add_epi32(sums, rounding), 8);
        }
        /* Words in lanes as columns 0-3, 8-11 | 4-7, 12-15: put in order, then bytes. */
        __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(mixed[0], mixed[1]), 0xD8);
        _mm_storeu_si128((__m128i *)(out + x),
                         _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1)));
    }
    resample_columns_from(plan, source, out, x);
}
#endif

static void plan_clear(PlanePlan *plan) {
    g_free(plan->column);
    g_free(plan->column_weight);
    g_free(plan->group_start);
    g_free(plan->group_shuffle);
    g_free(plan->group_weights);
    g_free(plan->rows[0]);
    g_free(plan->rows[1]);
    g_free(plan->blended);
    g_free(plan->sums);
    memset(plan, 0, sizeof *plan);
}

/* Where output sample `index` of `out_size` falls among `mid_size`
 * intermediate samples, each the average of `box` of `in_size` inputs:
 * centres map to centres; the first sample and the next one's weight. */
static gint mid_position(gint index, gint in_size, gint out_size, gint box, gint mid_size, guint *weight) {
    double position = (index + 0.5) * in_size / out_size / box - 0.5;
    position = CLAMP(position, 0, mid_size - 1);
    gint first = (gint)position;
    *weight = (guint)((position - first) * 256 + 0.5);
    if (*weight == 256) {
        first++;
        *weight = 0;
    }
    return MIN(first, mid_size - 1);
}

/* The AVX2 resampler's groups of four columns, from the columns: as
 * many whole groups as read inside the row and find their pairs in their
 * 16 bytes (all of them but the last few, since a column is less than two
 * intermediate samples across). */
static void plan_groups(PlanePlan *plan) {
    gint groups = plan->out_width / 4;
    plan->group_start = g_new(gint32, groups);
    plan->group_shuffle = g_new(guint8, 16 * groups);
    plan->group_weights = g_new(gint16, 8 * groups);
    plan->grouped = 0;
    for (gint group = 0; group < groups; group++) {
        gint start = plan->column[4 * group];
        if (start + 16 > plan->mid_width || plan->column[4 * group + 3] + 1 - start > 15) break;
        plan->group_start[group] = start;
        for (gint k = 0; k < 4; k++) {
            gint x = 4 * group + k;
            guint8 *shuffle = plan->group_shuffle + 16 * group + 4 * k;
            /* The left sample and the right one, each a word (0x80: a zero byte). */
            shuffle[0] = (guint8)(plan->column[x] - start);
            shuffle[1] = 0x80;
            shuffle[2] = (guint8)(plan->column[x] + 1 - start);
            shuffle[3] = 0x80;
            plan->group_weights[8 * group + 2 * k] = (gint16)(256 - plan->column_weight[x]);
            plan->group_weights[8 * group + 2 * k + 1] = (gint16)plan->column_weight[x];
        }
        plan->grouped = 4 * (group + 1);
    }
}

static void plan_make(PlanePlan *plan, gint in_width, gint in_height, gint out_width, gint out_height, gboolean wide,
                      gboolean chroma_of_444) {
    plan_clear(plan);
    plan->in_width = in_width;
    plan->in_height = in_height;
    plan->out_width = out_width;
    plan->out_height = out_height;
    plan->box_x = CLAMP(in_width / out_width, 1, MAX_BOX);
    plan->box_y = CLAMP(in_height / out_height, 1, MAX_BOX);
    plan->mid_width = (in_width + plan->box_x - 1) / plan->box_x;
    plan->mid_height = (in_height + plan->box_y - 1) / plan->box_y;
    plan->divisor = (guint)(plan->box_x * plan->box_y) * (wide ? 4 : 1);
    plan->by_shift = (plan->divisor & (plan->divisor - 1)) == 0;
    plan->shift = plan->by_shift ? (guint)g_bit_nth_lsf(plan->divisor, -1) : 0;
    plan->multiplier = ((G_GUINT64_CONSTANT(1) << 32) + plan->divisor - 1) / plan->divisor;
    plan->middle_only = chroma_of_444 && plan->box_x == 4 && plan->box_y == 4;
    if (plan->mid_width != out_width) {
        plan->column = g_new(gint32, out_width);
        plan->column_weight = g_new(guint16, out_width);
        for (gint x = 0; x < out_width; x++) {
            guint weight = 0;
            gint left = mid_position(x, in_width, out_width, plan->box_x, plan->mid_width, &weight);
            /* The last sample as its neighbour's right one, at full weight:
             * no column reads past the row. */
            if (left == plan->mid_width - 1 && left > 0) {
                left--;
                weight = 256;
            }
            plan->column[x] = left;
            plan->column_weight[x] = (guint16)weight;
        }
        plan_groups(plan);
    }
    plan->resample = resample_columns;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) plan->resample = resample_columns_avx2;
#endif
    plan->rows[0] = g_malloc0(plan->mid_width);
    plan->rows[1] = g_malloc0(plan->mid_width);
    plan->blended = g_malloc0(plan->mid_width);
    plan->sums = g_new(guint16, in_width);
}

/* The YUV to RGB matrix and range of `colorimetry`, for yuv_to_bgra:
 * R = Y' + 2(1-Kr) Cr', G = Y' - (2Kb(1-Kb) Cb' + 2Kr(1-Kr) Cr') / Kg,
 * B = Y' + 2(1-Kb) Cb', with Y' and C' the samples stretched to 0-255
 * and ±127.5 from their range. FALSE for a matrix without Kr and Kb
 * (RGB, unknown): left to videoconvert. */
static gboolean conversion_factors(const GstVideoColorimetry *colorimetry, gint32 *factors) {
    gdouble kr = 0, kb = 0;
    if (!gst_video_color_matrix_get_Kr_Kb(colorimetry->matrix, &kr, &kb)) return FALSE;
    gboolean full = colorimetry->range == GST_VIDEO_COLOR_RANGE_0_255;
    gdouble kg = 1 - kr - kb, chroma = (full ? 1.0 : 255.0 / 224.0) * (1 << 13);
    factors[0] = (gint32)((full ? 1.0 : 255.0 / 219.0) * (1 << 13) + 0.5);
    factors[1] = full ? 0 : 16;
    factors[2] = (gint32)(2 * (1 - kr) * chroma + 0.5);
    factors[3] = (gint32)(2 * kb * (1 - kb) / kg * chroma + 0.5);
    factors[4] = (gint32)(2 * kr * (1 - kr) / kg * chroma + 0.5);
    factors[5] = (gint32)(2 * (1 - kb) * chroma + 0.5);
    return TRUE;
}

static gboolean set_info(GstVideoFilter *filter, GstCaps *in_caps, GstVideoInfo *in_info, GstCaps *out_caps,
                         GstVideoInfo *out_info) {
    (void)in_caps;
    (void)out_caps;
    TcFrameReducer *self = (TcFrameReducer *)filter;
    GstVideoFormat in = GST_VIDEO_INFO_FORMAT(in_info), out = GST_VIDEO_INFO_FORMAT(out_info);
    gboolean same_size = GST_VIDEO_INFO_WIDTH(in_info) == GST_VIDEO_INFO_WIDTH(out_info)
        && GST_VIDEO_INFO_HEIGHT(in_info) == GST_VIDEO_INFO_HEIGHT(out_info);
    if (in == out && same_size) {
        gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(filter), TRUE);
        return TRUE;
    }
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(filter), FALSE);
    const gchar *in_format = gst_video_format_to_string(in);
    if (!(out == GST_VIDEO_FORMAT_I420 || out == GST_VIDEO_FORMAT_BGRA)
        || !(is_reduced(in_format) || in == GST_VIDEO_FORMAT_I420))
        return FALSE;
    /* BGRA is made from I420 rows of the output's size. */
    GstVideoInfo planes_info;
    gst_video_info_set_format(&planes_info, GST_VIDEO_FORMAT_I420, GST_VIDEO_INFO_WIDTH(out_info),
                              GST_VIDEO_INFO_HEIGHT(out_info));
    gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH(in_info->finfo, 0) > 8;
    for (guint c = 0; c < 3; c++) {
        gboolean chroma_of_444 = c > 0 && GST_VIDEO_INFO_COMP_WIDTH(in_info, c) == GST_VIDEO_INFO_WIDTH(in_info)
            && GST_VIDEO_INFO_COMP_HEIGHT(in_info, c) == GST_VIDEO_INFO_HEIGHT(in_info);
        plan_make(&self->planes[c], GST_VIDEO_INFO_COMP_WIDTH(in_info, c), GST_VIDEO_INFO_COMP_HEIGHT(in_info, c),
                  GST_VIDEO_INFO_COMP_WIDTH(&planes_info, c), GST_VIDEO_INFO_COMP_HEIGHT(&planes_info, c), wide,
                  chroma_of_444);
        g_free(self->converted_rows[c]);
        self->converted_rows[c] = g_malloc(GST_VIDEO_INFO_COMP_WIDTH(&planes_info, c) + 4);
    }
    if (out == GST_VIDEO_FORMAT_BGRA && !conversion_factors(&in_info->colorimetry, self->factors)) return FALSE;
    return TRUE;
}

/* Asks the memory for `count` rows of `length` bytes from `row` on, a cache
 * line at a time, before they are read: the hardware's own prefetcher
 * stops at each 4 KB page, and a 1080p plane's row is about half a page
 * (10-bit: nearly a whole one), so reading a decoded frame (3 to 12 MB,
 * written by the decoder's threads: not in this core's cache) waited on
 * memory at the start of nearly every row. */
static void prefetch_rows(const guint8 *row, gint stride, gint count, gsize length) {
    for (gint r = 0; r < count; r++, row += stride)
        for (gsize at = 0; at < length; at += 64) __builtin_prefetch(row + at, 0, 3);
}

/* The input rows box_row reads for intermediate row `index`, asked for
 * one intermediate row ahead. */
static void prefetch_box_row(const PlanePlan *plan, const guint8 *plane, gint stride, gboolean wide, gint index) {
    gint first = index * plan->box_y + (plan->middle_only ? 1 : 0);
    gint count = MIN(plan->middle_only ? 2 : plan->box_y, plan->in_height - first);
    if (count > 0) prefetch_rows(plane + (gsize)first * stride, stride, count, (gsize)plan->in_width * (wide ? 2 : 1));
}

/* Intermediate row `index` of a plane into `out` (mid_width samples):
 * each sample the rounded mean of its box, brought to 8 bits; a box cut
 * short by the frame's edge repeats its last column or row. */
static void box_row(const PlanePlan *plan, const guint8 *plane, gint stride, gboolean wide, gint index, guint8 *out) {
    gint first = index * plan->box_y, last_row = plan->in_height - 1;
    prefetch_box_row(plan, plane, stride, wide, index + 1);
    const guint8 *top = plane + (gsize)MIN(first, last_row) * stride;
    gint in_width = plan->in_width, width = plan->mid_width;
    if (plan->box_x == 1 && plan->box_y == 1) {
        if (wide) narrow((const guint16 *)top, out, width);
        else memcpy(out, top, width);
        return;
    }
    if (plan->box_x == 2 && plan->box_y == 2) {
        const guint8 *bottom = plane + (gsize)MIN(first + 1, last_row) * stride;
        gint whole = in_width / 2;
        if (wide) average_wide_pairs((const guint16 *)top, (const guint16 *)bottom, out, whole);
        else average_pairs(top, bottom, out, whole);
        if (whole < width) {
            guint sum = wide ? 2u * ((const guint16 *)top)[in_width - 1] + 2u * ((const guint16 *)bottom)[in_width - 1]
                             : 2u * top[in_width - 1] + 2u * bottom[in_width - 1];
            out[whole] = to_byte((sum + (wide ? 8u : 2u)) >> (wide ? 4 : 2));
        }
        return;
    }
    if (plan->middle_only) {
        /* Rows 1 and 2 of the box, columns 1 and 2: half the rows of the
         * plane read, and the same centre as the whole box. */
        const guint8 *upper = plane + (gsize)MIN(first + 1, last_row) * stride;
        const guint8 *lower = plane + (gsize)MIN(first + 2, last_row) * stride;
        gint whole = MIN((in_width - 3) / 4 + 1, width);
        if (in_width < 3) whole = 0;
        if (wide) average_wide_middles((const guint16 *)upper, (const guint16 *)lower, out, whole);
        else average_middles(upper, lower, out, whole);
        for (gint x = whole; x < width; x++) {
            gint left = MIN(4 * x + 1, in_width - 1), right = MIN(4 * x + 2, in_width - 1);
            guint sum = wide ? (guint)((const guint16 *)upper)[left] + ((const guint16 *)upper)[right]
                                   + ((const guint16 *)lower)[left] + ((const guint16 *)lower)[right]
                             : (guint)upper[left] + upper[right] + lower[left] + lower[right];
            out[x] = to_byte((sum + (wide ? 8u : 2u)) >> (wide ? 4 : 2));
        }
        return;
    }
    /* Any other box: the columns' sums over its rows first, then each
     * box's columns. */
    guint16 *sums = plan->sums;
    memset(sums, 0, sizeof *sums * in_width);
    for (gint r = 0; r < plan->box_y; r++) {
        const guint8 *row = plane + (gsize)MIN(first + r, last_row) * stride;
        if (wide) add_wide_row(sums, (const guint16 *)row, in_width);
        else add_row(sums, row, in_width);
    }
    /* Whole boxes; a last one cut short repeats its last column. */
    gint whole = plan->by_shift ? MIN(in_width / plan->box_x, width) : 0;
    if (whole > 0) average_sums(sums, out, whole, plan->box_x, plan->shift);
    guint half = plan->divisor / 2;
    for (gint x = whole; x < width; x++) {
        guint sum = 0;
        for (gint c = 0; c < plan->box_x; c++) sum += sums[MIN(x * plan->box_x + c, in_width - 1)];
        out[x] = to_byte(plan->by_shift ? (sum + half) >> plan->shift
                                        : (guint)(((guint64)(sum + half) * plan->multiplier) >> 32));
    }
}

/* The intermediate row `index`, made if it is not kept already; an 8-bit
 * plane's own row when its boxes are single samples. */
static const guint8 *mid_row(PlanePlan *plan, const guint8 *plane, gint stride, gboolean wide, gint index) {
    if (!wide && plan->box_x == 1 && plan->box_y == 1) {
        if (index + 2 < plan->in_height) prefetch_rows(plane + (gsize)(index + 2) * stride, stride, 1, (gsize)plan->in_width);
        return plane + (gsize)index * stride;
    }
    gint slot = index & 1;
    if (plan->row_index[slot] != index) {
        box_row(plan, plane, stride, wide, index, plan->rows[slot]);
        plan->row_index[slot] = index;
    }
    return plan->rows[slot];
}

/* Output row `y` of a plane into `row`. Rows are asked for in order, so
 * each intermediate row is made once. */
static void make_row(PlanePlan *plan, const guint8 *plane, gint stride, gboolean wide, gint y, guint8 *row) {
    gboolean same_columns = plan->mid_width == plan->out_width, same_rows = plan->mid_height == plan->out_height;
    const guint8 *source;
    if (same_rows && same_columns) {
        /* Boxes alone make this row: straight into it. */
        box_row(plan, plane, stride, wide, y, row);
        return;
    }
    if (same_rows) {
        source = mid_row(plan, plane, stride, wide, y);
    } else {
        guint weight = 0;
        gint first = mid_position(y, plan->in_height, plan->out_height, plan->box_y, plan->mid_height, &weight);
        source = mid_row(plan, plane, stride, wide, first);
        if (weight > 0) {
            const guint8 *lower = mid_row(plan, plane, stride, wide, MIN(first + 1, plan->mid_height - 1));
            blend_rows(source, lower, plan->blended, plan->mid_width, (guint16)weight);
            source = plan->blended;
        }
    }
    if (same_columns) memcpy(row, source, plan->out_width);
    else plan->resample(plan, source, row);
}

/* Y, U and V rows to BGRA (alpha opaque), each chroma sample covering two
 * pixels across, as videoconvert's fast path does; the matrix and range
 * as fixed-point factors of 2^13 (conversion_factors). The sums are made
 * in 16 bits with 5 fractional bits (each product's high half, as the
 * AVX2 version below takes it: twice the lanes of 32-bit products and no
 * clamping but the final pack), within 1 of exact arithmetic. */
static inline guint8 clamped_byte(gint32 value) { return value < 0 ? 0 : value > 255 ? 255 : (guint8)value; }

/* The luma term's constant: its offset taken off, and half of the last
 * fractional bit for rounding. */
static inline gint32 luma_base(const gint32 *factors) { return 16 - ((factors[1] * factors[0]) >> 8); }

ROW_LOOP void yuv_to_bgra(const guint8 *restrict luma, const guint8 *restrict u, const guint8 *restrict v,
                          guint32 *restrict out, gint count, const gint32 *restrict factors) {
    const gint32 luma_scale = factors[0], base = luma_base(factors), r_v = factors[2], g_u = factors[3],
                 g_v = factors[4], b_u = factors[5];
    for (gint x = 0; x < count; x++) {
        gint32 cb = u[x / 2] - 128, cr = v[x / 2] - 128;
        gint32 y = ((luma[x] * luma_scale) >> 8) + base;
        gint32 r = (y + ((cr * r_v) >> 8)) >> 5, g = (y - ((cb * g_u) >> 8) - ((cr * g_v) >> 8)) >> 5,
               b = (y + ((cb * b_u) >> 8)) >> 5;
        out[x] = (guint32)clamped_byte(b) | (guint32)clamped_byte(g) << 8 | (guint32)clamped_byte(r) << 16 | 0xff000000u;
    }
}

#if defined(__x86_64__)
/* The same with AVX2, 32 pixels a step (the compiler makes 32-bit
 * products of the loop above, and spends as much again doubling chroma and
 * interleaving bytes); rows under 32 pixels by the loop above. */
__attribute__((target("avx2"))) static void yuv_to_bgra_avx2(const guint8 *restrict luma, const guint8 *restrict u,
                                                            const guint8 *restrict v, guint32 *restrict out,
                                                            gint count, const gint32 *restrict factors) {
    const __m256i luma_scale = _mm256_set1_epi16((short)factors[0]), base = _mm256_set1_epi16((short)luma_base(factors));
    const __m256i r_v = _mm256_set1_epi16((short)factors[2]), g_u = _mm256_set1_epi16((short)factors[3]),
                  g_v = _mm256_set1_epi16((short)factors[4]), b_u = _mm256_set1_epi16((short)factors[5]);
    const __m256i centre = _mm256_set1_epi16(128), opaque = _mm256_set1_epi16(255);
    /* Pixels in pairs that share their chroma; an odd last one after. */
    gint paired = count & ~1;
    if (paired < 32) {
        yuv_to_bgra(luma, u, v, out, count, factors);
        return;
    }
    if (paired < count) yuv_to_bgra(luma + paired, u + paired / 2, v + paired / 2, out + paired, 1, factors);
    /* The last step ends at the last pair, over pixels made already (the
     * same values). */
    gint last = paired - 32;
    for (gint x = 0;; x = MIN(x + 32, last)) {
        /* 16 chroma samples, in the order in which unpacking each lane with
         * itself doubles them into pixel order: 0-3 and 8-11, then 4-7 and 12-15. */
        __m256i cb = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(u + x / 2)));
        __m256i cr = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(v + x / 2)));
        cb = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_permute4x64_epi64(cb, 0xD8), centre), 8);
        cr = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_permute4x64_epi64(cr, 0xD8), centre), 8);
        /* (c × factor) >> 8, as the high half of (c << 8) × factor. */
        __m256i red = _mm256_mulhi_epi16(cr, r_v), blue = _mm256_mulhi_epi16(cb, b_u);
        __m256i green = _mm256_add_epi16(_mm256_mulhi_epi16(cb, g_u), _mm256_mulhi_epi16(cr, g_v));
        for (gint half = 0; half < 2; half++) {
            __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(luma + x + 16 * half)));
            y = _mm256_add_epi16(_mm256_mulhi_epu16(_mm256_slli_epi16(y, 8), luma_scale), base);
            __m256i r = half ? _mm256_unpackhi_epi16(red, red) : _mm256_unpacklo_epi16(red, red);
            __m256i g = half ? _mm256_unpackhi_epi16(green, green) : _mm256_unpacklo_epi16(green, green);
            __m256i b = half ? _mm256_unpackhi_epi16(blue, blue) : _mm256_unpacklo_epi16(blue, blue);
            r = _mm256_srai_epi16(_mm256_add_epi16(y, r), 5);
            g = _mm256_srai_epi16(_mm256_sub_epi16(y, g), 5);
            b = _mm256_srai_epi16(_mm256_add_epi16(y, b), 5);
            /* Per lane (pixels 0-7, 8-15): B and R bytes, G and alpha bytes;
             * then B G pairs and R A pairs; then whole pixels, four at a time. */
            __m256i blue_red = _mm256_packus_epi16(b, r), green_alpha = _mm256_packus_epi16(g, opaque);
            __m256i blue_green = _mm256_unpacklo_epi8(blue_red, green_alpha);
            __m256i red_alpha = _mm256_unpackhi_epi8(blue_red, green_alpha);
            __m256i first = _mm256_unpacklo_epi16(blue_green, red_alpha);
            __m256i second = _mm256_unpackhi_epi16(blue_green, red_alpha);
            guint32 *target = out + x + 16 * half;
            _mm256_storeu_si256((__m256i *)target, _mm256_permute2x128_si256(first, second, 0x20));
            _mm256_storeu_si256((__m256i *)(target + 8), _mm256_permute2x128_si256(first, second, 0x31));
        }
        if (x == last) break;
    }
}
#endif

static void reduce_plane(PlanePlan *plan, const GstVideoFrame *in, GstVideoFrame *out, gint component, gboolean wide) {
    const guint8 *plane = GST_VIDEO_FRAME_COMP_DATA(in, component);
    guint8 *target = GST_VIDEO_FRAME_COMP_DATA(out, component);
    gint in_stride = GST_VIDEO_FRAME_COMP_STRIDE(in, component);
    gint out_stride = GST_VIDEO_FRAME_COMP_STRIDE(out, component);
    plan->row_index[0] = plan->row_index[1] = -1;
    for (gint y = 0; y < plan->out_height; y++) make_row(plan, plane, in_stride, wide, y, target + (gsize)y * out_stride);
}

/* Scaled I420 rows made into BGRA as they are made: no I420 frame between. */
static void reduce_to_bgra(TcFrameReducer *self, const GstVideoFrame *in, GstVideoFrame *out, gboolean wide) {
    guint8 *target = GST_VIDEO_FRAME_PLANE_DATA(out, 0);
    gint out_stride = GST_VIDEO_FRAME_PLANE_STRIDE(out, 0);
    for (gint c = 0; c < 3; c++) self->planes[c].row_index[0] = self->planes[c].row_index[1] = -1;
    gint chroma_row = -1;
    for (gint y = 0; y < self->planes[0].out_height; y++) {
        make_row(&self->planes[0], GST_VIDEO_FRAME_COMP_DATA(in, 0), GST_VIDEO_FRAME_COMP_STRIDE(in, 0), wide, y,
                 self->converted_rows[0]);
        if (y / 2 != chroma_row) {
            chroma_row = y / 2;
            for (gint c = 1; c < 3; c++)
                make_row(&self->planes[c], GST_VIDEO_FRAME_COMP_DATA(in, c), GST_VIDEO_FRAME_COMP_STRIDE(in, c), wide,
                         chroma_row, self->converted_rows[c]);
        }
        self->convert(self->converted_rows[0], self->converted_rows[1], self->converted_rows[2],
                      (guint32 *)(target + (gsize)y * out_stride), self->planes[0].out_width, self->factors);
    }
}

static GstFlowReturn transform_frame(GstVideoFilter *filter, GstVideoFrame *in, GstVideoFrame *out) {
    TcFrameReducer *self = (TcFrameReducer *)filter;
    gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH(in->info.finfo, 0) > 8;
    if (GST_VIDEO_FRAME_FORMAT(out) == GST_VIDEO_FORMAT_BGRA) reduce_to_bgra(self, in, out, wide);
    else
        for (gint c = 0; c < 3; c++) reduce_plane(&self->planes[c], in, out, c, wide);
    return GST_FLOW_OK;
}

/* When frames are reduced (not passed through), the decoder is offered
 * frame-pool.c's pool and memory, with the video meta and alignment
 * decoders need to decode into it directly (avdec's direct rendering): the
 * copy GstVideoDecoder makes of each frame the codec still holds is then
 * made only if written, and the reducer only reads it. Passed through,
 * the query goes on downstream (the base class). */
static gboolean propose_allocation(GstBaseTransform *transform, GstQuery *decide_query, GstQuery *query) {
    TcFrameReducer *self = (TcFrameReducer *)transform;
    GstCaps *caps = NULL;
    GstVideoInfo info;
    gst_query_parse_allocation(query, &caps, NULL);
    if (decide_query != NULL && caps != NULL && gst_query_get_n_allocation_pools(query) == 0
        && gst_video_info_from_caps(&info, caps)) {
        GstAllocationParams params;
        gst_allocation_params_init(&params);
        params.align = 31;
        GstBufferPool *pool = tc_frame_pool_new();
        GstStructure *config = gst_buffer_pool_get_config(pool);
        gst_buffer_pool_config_set_params(config, caps, (guint)GST_VIDEO_INFO_SIZE(&info), 0, 0);
        gst_buffer_pool_config_set_allocator(config, self->allocator, &params);
        gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
        if (gst_buffer_pool_set_config(pool, config)) {
            gst_query_add_allocation_param(query, self->allocator, &params);
            gst_query_add_allocation_pool(query, pool, (guint)GST_VIDEO_INFO_SIZE(&info), 0, 0);
            gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL);
        }
        gst_object_unref(pool);
    }
    return GST_BASE_TRANSFORM_CLASS(tc_frame_reducer_parent_class)->propose_allocation(transform, decide_query, query);
}

static void tc_frame_reducer_finalize(GObject *object) {
    TcFrameReducer *self = (TcFrameReducer *)object;
    gst_clear_object(&self->allocator);
    for (guint c = 0; c < 3; c++) {
        plan_clear(&self->planes[c]);
        g_free(self->converted_rows[c]);
    }
    G_OBJECT_CLASS(tc_frame_reducer_parent_class)->finalize(object);
}

static void tc_frame_reducer_class_init(TcFrameReducerClass *klass) {
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    G_OBJECT_CLASS(klass)->finalize = tc_frame_reducer_finalize;
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "Frame reducer", "Filter/Converter/Video/Scaler",
                                          "Video to 8-bit 4:2:0 at the drawn size, for display", "Trackcast");
    GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = transform_caps;
    GST_BASE_TRANSFORM_CLASS(klass)->passthrough_on_same_caps = TRUE;
    GST_BASE_TRANSFORM_CLASS(klass)->propose_allocation = propose_allocation;
    GST_VIDEO_FILTER_CLASS(klass)->set_info = set_info;
    GST_VIDEO_FILTER_CLASS(klass)->transform_frame = transform_frame;
}

static void tc_frame_reducer_init(TcFrameReducer *self) {
    self->allocator = tc_frame_allocator_new();
    self->convert = yuv_to_bgra;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) self->convert = yuv_to_bgra_avx2;
#endif
}

GstElement *tc_frame_reducer_new(void) { return g_object_new(tc_frame_reducer_get_type(), NULL); }

void tc_frame_reducer_set_drawn_size(GstElement *reducer, int width, int height) {
    TcFrameReducer *self = (TcFrameReducer *)reducer;
    GST_OBJECT_LOCK(self);
    gboolean changed = self->drawn_width != width || self->drawn_height != height;
    self->drawn_width = width;
    self->drawn_height = height;
    GST_OBJECT_UNLOCK(self);
    /* Negotiated again before the next frame, with the new size. */
    if (changed) gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}
