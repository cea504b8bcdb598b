#pragma once
#include <gst/gst.h>

G_BEGIN_DECLS

/* Two audio filters for listening, registered with GStreamer (in this
 * process only) by tc_audio_effects_register(), after gst_init.
 *
 * "tcskipsilence": shortens every silence longer than "kept-silence" to
 * that length, while "remove" is TRUE. Silence is a 10 ms window whose RMS
 * level is below "threshold" (dBFS), over all channels; windows are cut out
 * of buffers and the rest moved together, so speech around a silence is
 * never touched. Later buffers are retimestamped to follow on without a
 * gap, and a segment whose stream time is moved on by the same amount is
 * sent ahead of them, so positions downstream stay the media's own. The
 * read-only "removed" is the playing time cut since the element started
 * (nanoseconds at the rate it is played at: the listener's time saved).
 * Any rate, any number of channels, 32-bit float.
 *
 * "tcvoiceboost": while "enabled", a compressor with make-up gain: a level
 * follower (5 ms attack, 200 ms release) turns levels above -30 dBFS down
 * 3:1 and everything up 16 dB, with a ceiling just below full scale; quiet
 * speech comes up by up to 16 dB, loud speech stays about where it was.
 * The gain moves smoothly, so switching it on or off while playing does
 * not click. Any rate, any number of channels, 32-bit float.
 *
 * Both properties may be set from any thread at any time. */
gboolean tc_audio_effects_register(void);

/* playbin's audio sink: "volume ! SINK" in a bin, so that the volume costs
 * no converter of its own and an item without effects starts as soon as a
 * bare playbin does (an audio filter gets an audioconvert from playsink in
 * front of it, about 1 ms of every start).
 *
 * tc_audio_output_add_effects() puts an effects bin (one sink and one src
 * pad, taken if floating) in front of the volume. Stopped (NULL or READY),
 * or before anything is linked to the output, it goes in as it is; later it
 * goes in from an idle probe on the pad that feeds the output, at once if
 * nothing is flowing, else as soon as the buffer in flight has passed, with
 * an audioconvert on each side and the volume's current format kept after
 * it, so the sink's format never changes. A second effects bin is ignored
 * while one is in or waiting. tc_audio_output_remove_effects() takes them
 * out, and forgets one still waiting; call it only stopped. */
GstElement *tc_audio_output_new(GstElement *sink);
GstElement *tc_audio_output_get_volume(GstElement *output);
void tc_audio_output_add_effects(GstElement *output, GstElement *effects);
void tc_audio_output_remove_effects(GstElement *output);

G_END_DECLS
