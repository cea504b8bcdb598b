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

G_END_DECLS
