#include "trackcast-audio.h"

/* The output bin: a ghost sink pad in front of "volume ! SINK", and, once
 * added, an effects bin in front of the volume. What the bin holds is kept
 * in one struct on the bin, under its own lock, since an effects bin added
 * while playing goes in from GStreamer's streaming thread. */
typedef struct {
    GMutex lock;
    GstElement *volume;
    /* The effects and the converters around them, while in the bin. */
    GstElement *effects;
    GstElement *converter_in;
    GstElement *converter_out;
    GstElement *format_keeper;
    /* An effects bin waiting for the pad to be idle, and the probe that waits. */
    GstElement *pending_effects;
    GstPad *probed_pad;
    gulong probe_id;
} TcAudioOutput;

static const char *const output_key = "tc-audio-output";

static TcAudioOutput *output_of(GstElement *bin) {
    return g_object_get_data(G_OBJECT(bin), output_key);
}

static void output_free(gpointer data) {
    TcAudioOutput *output = data;
    if (output->pending_effects) gst_object_unref(output->pending_effects);
    if (output->probed_pad) gst_object_unref(output->probed_pad);
    g_mutex_clear(&output->lock);
    g_free(output);
}

static GstPad *ghost_sink_pad(GstElement *bin) {
    return gst_element_get_static_pad(bin, "sink");
}

/* Points the bin's sink at `first`, or at nothing. The volume's sink pad
 * is linked to the ghost pad while it is the target, so it is let go before
 * anything else is linked to it. */
static void retarget(GstElement *bin, GstElement *first) {
    GstPad *ghost = ghost_sink_pad(bin);
    GstPad *target = first ? gst_element_get_static_pad(first, "sink") : NULL;
    gst_ghost_pad_set_target(GST_GHOST_PAD(ghost), target);
    if (target) gst_object_unref(target);
    gst_object_unref(ghost);
}

GstElement *tc_audio_output_new(GstElement *sink) {
    GstElement *volume = gst_element_factory_make("volume", "output-volume");
    if (!volume) {
        gst_object_unref(gst_object_ref_sink(sink));
        return NULL;
    }
    GstElement *bin = gst_bin_new("trackcast-audio-output");
    gst_bin_add_many(GST_BIN(bin), volume, sink, NULL);
    if (!gst_element_link(volume, sink)) {
        gst_object_unref(gst_object_ref_sink(bin));
        return NULL;
    }
    GstPad *target = gst_element_get_static_pad(volume, "sink");
    gst_element_add_pad(bin, gst_ghost_pad_new("sink", target));
    gst_object_unref(target);

    TcAudioOutput *output = g_new0(TcAudioOutput, 1);
    g_mutex_init(&output->lock);
    output->volume = volume;
    g_object_set_data_full(G_OBJECT(bin), output_key, output, output_free);
    return bin;
}

GstElement *tc_audio_output_get_volume(GstElement *bin) {
    return output_of(bin)->volume;
}

/* With the lock held. Before the item starts: the effects straight in
 * front of the volume, negotiated with everything else. */
static void link_effects_unlocked(GstElement *bin, TcAudioOutput *output, GstElement *effects) {
    retarget(bin, NULL);
    gst_bin_add(GST_BIN(bin), effects);
    gst_element_link(effects, output->volume);
    if (GST_STATE(bin) > GST_STATE_NULL) gst_element_sync_state_with_parent(effects);
    retarget(bin, effects);
    output->effects = effects;
}

/* With the lock held, from the idle probe. While it plays, the stream
 * already has a format that the effects (32-bit float) may not take, and
 * the volume and the sink have agreed on theirs: converters on both sides,
 * the one after held to the volume's current format, so nothing downstream
 * has to change (a sound server would restart its stream for a new one). */
static void splice_effects_unlocked(GstElement *bin, TcAudioOutput *output, GstElement *effects) {
    GstPad *volume_sink = gst_element_get_static_pad(output->volume, "sink");
    GstCaps *current = gst_pad_get_current_caps(volume_sink);
    gst_object_unref(volume_sink);

    output->converter_in = gst_element_factory_make("audioconvert", NULL);
    output->converter_out = gst_element_factory_make("audioconvert", NULL);
    output->format_keeper = gst_element_factory_make("capsfilter", NULL);
    if (current) {
        g_object_set(output->format_keeper, "caps", current, NULL);
        gst_caps_unref(current);
    }
    /* Nothing flows while an idle probe's callback runs. */
    retarget(bin, NULL);
    gst_bin_add_many(GST_BIN(bin), output->converter_in, effects, output->converter_out, output->format_keeper, NULL);
    gst_element_link_many(output->converter_in, effects, output->converter_out, output->format_keeper, output->volume,
                          NULL);
    /* Downstream first, so each element is ready for what the one before sends. */
    gst_element_sync_state_with_parent(output->format_keeper);
    gst_element_sync_state_with_parent(output->converter_out);
    gst_element_sync_state_with_parent(effects);
    gst_element_sync_state_with_parent(output->converter_in);
    retarget(bin, output->converter_in);
    output->effects = effects;
}

static GstPadProbeReturn splice_when_idle(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    (void)info;
    GstElement *bin = data;
    TcAudioOutput *output = output_of(bin);
    g_mutex_lock(&output->lock);
    GstElement *effects = output->pending_effects;
    output->pending_effects = NULL;
    output->probe_id = 0;
    g_clear_object(&output->probed_pad);
    if (effects) {
        splice_effects_unlocked(bin, output, effects);
        gst_object_unref(effects);
    }
    g_mutex_unlock(&output->lock);
    return GST_PAD_PROBE_REMOVE;
}

void tc_audio_output_add_effects(GstElement *bin, GstElement *effects) {
    TcAudioOutput *output = output_of(bin);
    gst_object_ref_sink(effects);
    g_mutex_lock(&output->lock);
    if (output->effects || output->pending_effects) {
        g_mutex_unlock(&output->lock);
        gst_object_unref(effects);
        return;
    }
    GstPad *ghost = ghost_sink_pad(bin);
    GstPad *upstream = gst_pad_get_peer(ghost);
    gst_object_unref(ghost);
    if (GST_STATE(bin) <= GST_STATE_READY || !upstream) {
        link_effects_unlocked(bin, output, effects);
        gst_object_unref(effects);
        g_mutex_unlock(&output->lock);
        if (upstream) gst_object_unref(upstream);
        return;
    }
    /* The probe may run at once, on this thread, if nothing flows. */
    output->pending_effects = effects;
    output->probed_pad = upstream;
    g_mutex_unlock(&output->lock);
    gulong id = gst_pad_add_probe(upstream, GST_PAD_PROBE_TYPE_IDLE, splice_when_idle, gst_object_ref(bin),
                                  gst_object_unref);
    g_mutex_lock(&output->lock);
    if (output->probed_pad == upstream) output->probe_id = id;
    g_mutex_unlock(&output->lock);
}

static void take_out(GstElement *bin, GstElement **element) {
    if (!*element) return;
    gst_element_set_state(*element, GST_STATE_NULL);
    gst_bin_remove(GST_BIN(bin), *element);
    *element = NULL;
}

void tc_audio_output_remove_effects(GstElement *bin) {
    TcAudioOutput *output = output_of(bin);
    g_mutex_lock(&output->lock);
    if (output->probed_pad && output->probe_id) gst_pad_remove_probe(output->probed_pad, output->probe_id);
    output->probe_id = 0;
    g_clear_object(&output->probed_pad);
    g_clear_object(&output->pending_effects);
    if (output->effects) {
        take_out(bin, &output->converter_in);
        take_out(bin, &output->effects);
        take_out(bin, &output->converter_out);
        take_out(bin, &output->format_keeper);
        retarget(bin, output->volume);
    }
    g_mutex_unlock(&output->lock);
}
