#pragma once
#include <gst/gst.h>

/* A video filter that makes frames what is drawn: 10-bit, 4:4:4 and 4:2:2
 * frames 8-bit 4:2:0, and frames bigger than the drawn size BGRA of that
 * size, in one pass; other formats pass through (frame-reducer.c). */
GstElement *tc_frame_reducer_new(void);

/* The size frames are drawn at on the CPU path (0 × 0: as decoded); bigger
 * frames are scaled down to fit it, keeping their display aspect, and
 * offered as BGRA first, from the next frame on. Any thread. */
void tc_frame_reducer_set_drawn_size(GstElement *reducer, int width, int height);
