#pragma once
#include <gst/gst.h>

/* A video filter that brings 10-bit, 4:4:4 and 4:2:2 frames to 8-bit 4:2:0
 * for display and passes other formats through (depth-reducer.c). */
GstElement *tc_depth_reducer_new(void);
