#pragma once
#include <glib.h>

/* Drains libdispatch's main queue (where Swift's main actor runs) from the
 * GLib main loop. Call once on the main thread before g_main_loop_run or
 * g_application_run. Returns the GSource ID of the watch. */
guint tc_main_queue_bridge_install(void);

/* How many times the bridge has drained the main queue; lets tests prove the
 * watch does not spin. */
guint64 tc_main_queue_bridge_wakeups(void);

/* For a short batch process that allocates tens of megabytes (`trackcast feed
 * parse` of a large feed): one malloc heap for all threads, grown now by
 * `reserve` bytes advised for transparent huge pages, and kept rather than
 * trimmed. Call before any other threads start. Returns whether the kernel
 * took the advice (glibc and Linux only; with THP off it has no effect). */
gboolean tc_batch_heap_prefer_large_pages(gsize reserve);
