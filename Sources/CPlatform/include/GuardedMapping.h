#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A regular file mapped for reading, safe against another program cutting
 * the file short while it is read: a page past the file's new end would
 * stop the process with SIGBUS; here it reads as zeros instead, and
 * tc_guarded_mapping_was_cut_short says so. Reading mapped, a large feed
 * is neither copied nor given fresh memory of its own.
 *
 * Returns the mapping of `fd`'s first `length` bytes (length > 0), or NULL
 * with errno set. At most 16 such mappings at a time (ENFILE beyond). */
void *tc_guarded_mapping_map(int fd, size_t length);

/* Whether a read of the mapping at `start` went past the file's end. */
bool tc_guarded_mapping_was_cut_short(const void *start);

/* Unmaps what tc_guarded_mapping_map returned. */
void tc_guarded_mapping_unmap(void *start, size_t length);
