#include "trackcast-audio.h"

#include <gst/audio/audio.h>
#include <gst/audio/gstaudiofilter.h>
#include <math.h>
#include <string.h>

#define FLOAT_CAPS                                                        \
    "audio/x-raw, format=(string)" GST_AUDIO_NE(F32) ", "                 \
    "layout=(string)interleaved, rate=(int)[1, MAX], channels=(int)[1, MAX]"

static void add_float_pad_templates(gpointer klass) {
    GstCaps *caps = gst_caps_from_string(FLOAT_CAPS);
    gst_audio_filter_class_add_pad_templates(GST_AUDIO_FILTER_CLASS(klass), caps);
    gst_caps_unref(caps);
}

/* ------------------------------------------------------------------ */
/* tcskipsilence                                                       */

#define SKIP_DEFAULT_THRESHOLD_DB -45.0
#define SKIP_DEFAULT_KEPT_SILENCE (300 * GST_MSECOND)
#define SKIP_WINDOWS_PER_SECOND 100

typedef struct {
    GstAudioFilter parent;

    /* Settings, under the object lock. */
    gboolean remove;
    gdouble threshold_db;
    GstClockTime kept_silence;

    /* Streaming thread only. */
    GstSegment segment;              /* upstream's, as last received */
    guint32 segment_seqnum;
    GstClockTime silent_run;         /* silence seen in a row, buffer time */
    GstClockTime removed_in_segment; /* cut since upstream's segment, buffer time */
    GstClockTime announced_shift;    /* what the segment sent downstream accounts for */

    /* Written by the streaming thread, read from any, under the object lock. */
    guint64 removed_total;           /* playing time */
} TcSkipSilence;

typedef struct {
    GstAudioFilterClass parent_class;
} TcSkipSilenceClass;

G_DEFINE_TYPE(TcSkipSilence, tc_skip_silence, GST_TYPE_AUDIO_FILTER)

enum { SKIP_PROP_0, SKIP_PROP_REMOVE, SKIP_PROP_THRESHOLD, SKIP_PROP_KEPT_SILENCE, SKIP_PROP_REMOVED };

static void skip_reset_stream(TcSkipSilence *self) {
    self->silent_run = 0;
    self->removed_in_segment = 0;
    self->announced_shift = 0;
}

static void skip_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    TcSkipSilence *self = (TcSkipSilence *)object;
    GST_OBJECT_LOCK(self);
    switch (id) {
    case SKIP_PROP_REMOVE: self->remove = g_value_get_boolean(value); break;
    case SKIP_PROP_THRESHOLD: self->threshold_db = g_value_get_double(value); break;
    case SKIP_PROP_KEPT_SILENCE: self->kept_silence = g_value_get_uint64(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec); break;
    }
    GST_OBJECT_UNLOCK(self);
}

static void skip_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    TcSkipSilence *self = (TcSkipSilence *)object;
    GST_OBJECT_LOCK(self);
    switch (id) {
    case SKIP_PROP_REMOVE: g_value_set_boolean(value, self->remove); break;
    case SKIP_PROP_THRESHOLD: g_value_set_double(value, self->threshold_db); break;
    case SKIP_PROP_KEPT_SILENCE: g_value_set_uint64(value, self->kept_silence); break;
    case SKIP_PROP_REMOVED: g_value_set_uint64(value, self->removed_total); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec); break;
    }
    GST_OBJECT_UNLOCK(self);
}

static gboolean skip_start(GstBaseTransform *transform) {
    TcSkipSilence *self = (TcSkipSilence *)transform;
    gst_segment_init(&self->segment, GST_FORMAT_UNDEFINED);
    skip_reset_stream(self);
    GST_OBJECT_LOCK(self);
    self->removed_total = 0;
    GST_OBJECT_UNLOCK(self);
    return TRUE;
}

static gboolean skip_sink_event(GstBaseTransform *transform, GstEvent *event) {
    TcSkipSilence *self = (TcSkipSilence *)transform;
    switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_SEGMENT:
        /* A seek or a new stream: nothing cut yet in this segment. */
        gst_event_copy_segment(event, &self->segment);
        self->segment_seqnum = gst_event_get_seqnum(event);
        skip_reset_stream(self);
        break;
    case GST_EVENT_FLUSH_STOP:
        self->silent_run = 0;
        break;
    default:
        break;
    }
    return GST_BASE_TRANSFORM_CLASS(tc_skip_silence_parent_class)->sink_event(transform, event);
}

/* Sends upstream's segment with its stream time moved on by `shift`: the
 * buffers that follow are timestamped `shift` earlier, so their running
 * time follows on from what was played while their stream time (the
 * position a query reports) stays the media's. */
static void skip_announce_shift(TcSkipSilence *self, GstClockTime shift) {
    GstSegment shifted;
    gst_segment_copy_into(&self->segment, &shifted);
    shifted.time += (guint64)((gdouble)shift * fabs(self->segment.applied_rate));
    GstEvent *event = gst_event_new_segment(&shifted);
    gst_event_set_seqnum(event, self->segment_seqnum);
    gst_pad_push_event(GST_BASE_TRANSFORM_SRC_PAD(self), event);
    self->announced_shift = shift;
}

static GstFlowReturn skip_transform_ip(GstBaseTransform *transform, GstBuffer *buffer) {
    TcSkipSilence *self = (TcSkipSilence *)transform;
    const GstAudioInfo *info = &GST_AUDIO_FILTER(self)->info;
    const int rate = GST_AUDIO_INFO_RATE(info);
    const int channels = GST_AUDIO_INFO_CHANNELS(info);
    const int frame_bytes = GST_AUDIO_INFO_BPF(info);
    if (rate <= 0 || channels <= 0) return GST_FLOW_OK;

    GST_OBJECT_LOCK(self);
    gboolean remove = self->remove;
    const gdouble threshold = pow(10.0, self->threshold_db / 10.0); /* mean square */
    const GstClockTime kept_silence = self->kept_silence;
    GST_OBJECT_UNLOCK(self);

    /* Cutting needs timestamps to mend and a time segment to mend them in. */
    if (self->segment.format != GST_FORMAT_TIME || !GST_BUFFER_PTS_IS_VALID(buffer)) remove = FALSE;

    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, remove ? GST_MAP_READWRITE : GST_MAP_READ)) return GST_FLOW_ERROR;
    gfloat *samples = (gfloat *)map.data;
    const gsize frames = map.size / frame_bytes;
    const gsize window = MAX(1, rate / SKIP_WINDOWS_PER_SECOND);
    gsize kept_frames = 0, cut_frames = 0, cut_before_first_kept = 0;

    for (gsize start = 0; start < frames; start += window) {
        const gsize count = MIN(window, frames - start);
        const gfloat *window_samples = samples + start * channels;
        gdouble sum = 0;
        for (gsize i = 0; i < count * channels; i++) sum += (gdouble)window_samples[i] * window_samples[i];
        const gboolean silent = sum / (gdouble)(count * channels) < threshold;
        self->silent_run = silent ? self->silent_run + gst_util_uint64_scale_int(count, GST_SECOND, rate) : 0;

        if (remove && silent && self->silent_run > kept_silence) {
            cut_frames += count;
            if (kept_frames == 0) cut_before_first_kept += count;
        } else {
            if (kept_frames != start)
                memmove(samples + kept_frames * channels, window_samples, count * frame_bytes);
            kept_frames += count;
        }
    }
    gst_buffer_unmap(buffer, &map);
    if (cut_frames == 0 && self->removed_in_segment == 0) return GST_FLOW_OK;

    const GstClockTime cut = gst_util_uint64_scale_int(cut_frames, GST_SECOND, rate);
    const GstClockTime shift = self->removed_in_segment + gst_util_uint64_scale_int(cut_before_first_kept, GST_SECOND, rate);
    self->removed_in_segment += cut;
    if (cut_frames > 0) {
        const gdouble speed = fabs(self->segment.rate) > 0 ? fabs(self->segment.rate) : 1;
        GST_OBJECT_LOCK(self);
        self->removed_total += (guint64)((gdouble)cut / speed);
        GST_OBJECT_UNLOCK(self);
    }
    if (kept_frames == 0) return GST_BASE_TRANSFORM_FLOW_DROPPED;

    if (cut_frames > 0) {
        gst_buffer_resize(buffer, 0, kept_frames * frame_bytes);
        GST_BUFFER_DURATION(buffer) = gst_util_uint64_scale_int(kept_frames, GST_SECOND, rate);
        GST_BUFFER_OFFSET_END(buffer) = GST_BUFFER_OFFSET_NONE;
    }
    if (shift != self->announced_shift) skip_announce_shift(self, shift);
    GST_BUFFER_PTS(buffer) -= MIN(shift, GST_BUFFER_PTS(buffer));
    return GST_FLOW_OK;
}

static void tc_skip_silence_class_init(TcSkipSilenceClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->set_property = skip_set_property;
    object_class->get_property = skip_get_property;
    g_object_class_install_property(object_class, SKIP_PROP_REMOVE,
        g_param_spec_boolean("remove", "Remove", "Shorten silences longer than kept-silence", FALSE,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    g_object_class_install_property(object_class, SKIP_PROP_THRESHOLD,
        g_param_spec_double("threshold", "Threshold", "RMS level (dBFS) below which 10 ms count as silence",
                            -120, 0, SKIP_DEFAULT_THRESHOLD_DB, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    g_object_class_install_property(object_class, SKIP_PROP_KEPT_SILENCE,
        g_param_spec_uint64("kept-silence", "Kept silence", "How much of each silence is kept (ns)",
                            0, G_MAXUINT64, SKIP_DEFAULT_KEPT_SILENCE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    g_object_class_install_property(object_class, SKIP_PROP_REMOVED,
        g_param_spec_uint64("removed", "Removed", "Playing time cut since the element started (ns)",
                            0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

    GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
    transform_class->start = skip_start;
    transform_class->sink_event = skip_sink_event;
    transform_class->transform_ip = skip_transform_ip;

    gst_element_class_set_static_metadata(GST_ELEMENT_CLASS(klass), "Skip silence", "Filter/Effect/Audio",
                                          "Shortens silences", "Trackcast");
    add_float_pad_templates(klass);
}

static void tc_skip_silence_init(TcSkipSilence *self) {
    self->threshold_db = SKIP_DEFAULT_THRESHOLD_DB;
    self->kept_silence = SKIP_DEFAULT_KEPT_SILENCE;
    gst_segment_init(&self->segment, GST_FORMAT_UNDEFINED);
    gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
}

/* ------------------------------------------------------------------ */
/* tcvoiceboost                                                        */

#define BOOST_THRESHOLD_DB -30.0f
#define BOOST_RATIO 3.0f
#define BOOST_MAKEUP_DB 16.0f
#define BOOST_CEILING 0.98f
#define BOOST_ATTACK_SECONDS 0.005f
#define BOOST_RELEASE_SECONDS 0.2f
/* How fast the gain follows its target: also the fade when toggled. */
#define BOOST_GAIN_SECONDS 0.02f
/* The gain's target is worked out once per this many frames. */
#define BOOST_CONTROL_FRAMES 16

typedef struct {
    GstAudioFilter parent;
    gboolean enabled;  /* under the object lock */
    gfloat envelope;   /* streaming thread only: the level followed */
    gfloat gain;       /* streaming thread only: the gain applied now */
} TcVoiceBoost;

typedef struct {
    GstAudioFilterClass parent_class;
} TcVoiceBoostClass;

G_DEFINE_TYPE(TcVoiceBoost, tc_voice_boost, GST_TYPE_AUDIO_FILTER)

enum { BOOST_PROP_0, BOOST_PROP_ENABLED };

static void boost_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    TcVoiceBoost *self = (TcVoiceBoost *)object;
    if (id != BOOST_PROP_ENABLED) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
        return;
    }
    GST_OBJECT_LOCK(self);
    self->enabled = g_value_get_boolean(value);
    GST_OBJECT_UNLOCK(self);
}

static void boost_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    TcVoiceBoost *self = (TcVoiceBoost *)object;
    if (id != BOOST_PROP_ENABLED) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
        return;
    }
    GST_OBJECT_LOCK(self);
    g_value_set_boolean(value, self->enabled);
    GST_OBJECT_UNLOCK(self);
}

static gfloat boost_target_gain(gfloat envelope) {
    const gfloat level_db = 20.0f * log10f(envelope + 1e-9f);
    const gfloat over = level_db - BOOST_THRESHOLD_DB;
    const gfloat reduction_db = over > 0 ? -over * (1.0f - 1.0f / BOOST_RATIO) : 0;
    return powf(10.0f, (reduction_db + BOOST_MAKEUP_DB) / 20.0f);
}

static GstFlowReturn boost_transform_ip(GstBaseTransform *transform, GstBuffer *buffer) {
    TcVoiceBoost *self = (TcVoiceBoost *)transform;
    const GstAudioInfo *info = &GST_AUDIO_FILTER(self)->info;
    const int rate = GST_AUDIO_INFO_RATE(info);
    const int channels = GST_AUDIO_INFO_CHANNELS(info);
    if (rate <= 0 || channels <= 0) return GST_FLOW_OK;

    GST_OBJECT_LOCK(self);
    const gboolean enabled = self->enabled;
    GST_OBJECT_UNLOCK(self);
    /* Off and faded out: the audio goes through untouched. */
    if (!enabled && fabsf(self->gain - 1.0f) < 1e-4f) {
        self->gain = 1.0f;
        return GST_FLOW_OK;
    }

    const gfloat attack = 1.0f - expf(-1.0f / (BOOST_ATTACK_SECONDS * rate));
    const gfloat release = 1.0f - expf(-1.0f / (BOOST_RELEASE_SECONDS * rate));
    const gfloat glide = 1.0f - expf(-1.0f / (BOOST_GAIN_SECONDS * rate));

    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READWRITE)) return GST_FLOW_ERROR;
    gfloat *samples = (gfloat *)map.data;
    const gsize frames = map.size / GST_AUDIO_INFO_BPF(info);
    gfloat target = 1.0f;
    for (gsize frame = 0; frame < frames; frame++) {
        gfloat *sample = samples + frame * channels;
        gfloat peak = 0;
        for (int c = 0; c < channels; c++) peak = MAX(peak, fabsf(sample[c]));
        self->envelope += (peak > self->envelope ? attack : release) * (peak - self->envelope);
        if (frame % BOOST_CONTROL_FRAMES == 0) target = enabled ? boost_target_gain(self->envelope) : 1.0f;
        self->gain += glide * (target - self->gain);
        for (int c = 0; c < channels; c++)
            sample[c] = CLAMP(sample[c] * self->gain, -BOOST_CEILING, BOOST_CEILING);
    }
    gst_buffer_unmap(buffer, &map);
    return GST_FLOW_OK;
}

static gboolean boost_start(GstBaseTransform *transform) {
    TcVoiceBoost *self = (TcVoiceBoost *)transform;
    self->envelope = 0;
    self->gain = 1.0f;
    return TRUE;
}

static void tc_voice_boost_class_init(TcVoiceBoostClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->set_property = boost_set_property;
    object_class->get_property = boost_get_property;
    g_object_class_install_property(object_class, BOOST_PROP_ENABLED,
        g_param_spec_boolean("enabled", "Enabled", "Compress and raise the level", FALSE,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

    GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
    transform_class->start = boost_start;
    transform_class->transform_ip = boost_transform_ip;

    gst_element_class_set_static_metadata(GST_ELEMENT_CLASS(klass), "Voice boost", "Filter/Effect/Audio",
                                          "Compression with make-up gain", "Trackcast");
    add_float_pad_templates(klass);
}

static void tc_voice_boost_init(TcVoiceBoost *self) {
    self->gain = 1.0f;
    gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
}

gboolean tc_audio_effects_register(void) {
    return gst_element_register(NULL, "tcskipsilence", GST_RANK_NONE, tc_skip_silence_get_type())
        && gst_element_register(NULL, "tcvoiceboost", GST_RANK_NONE, tc_voice_boost_get_type());
}
