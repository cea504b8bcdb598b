#pragma once
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/pbutils.h>
#include <gst/video/video.h>
#include <gst/tag/tag.h>

/* playbin's "get-audio-tags" and "get-text-tags" action signals: they are
 * emitted through the variadic g_signal_emit_by_name, which Swift cannot
 * call. The tags of stream `index` (transfer full), or NULL. */
static inline GstTagList *tc_playbin_stream_tags(GstElement *playbin, const char *signal, gint index) {
    GstTagList *tags = NULL;
    g_signal_emit_by_name(playbin, signal, index, &tags);
    return tags;
}

/* The stream-id of stream `index` through playbin's "get-video-pad",
 * "get-audio-pad" or "get-text-pad" action signal (the same variadic
 * emission). Free it with g_free; NULL before the stream has started. */
static inline gchar *tc_playbin_stream_id(GstElement *playbin, const char *signal, gint index) {
    GstPad *pad = NULL;
    g_signal_emit_by_name(playbin, signal, index, &pad);
    if (pad == NULL) return NULL;
    gchar *id = gst_pad_get_stream_id(pad);
    gst_object_unref(pad);
    return id;
}

/* GST_IS_BIN casts and computes a type check: Swift cannot import it. */
static inline gboolean tc_is_bin(GstElement *element) {
    return GST_IS_BIN(element);
}
