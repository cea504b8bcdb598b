#include "CTrackcastSupport.h"

#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

gboolean
tc_batch_heap_prefer_large_pages(gsize reserve)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    /* One heap grown by brk for every thread: a thread's own arena grows a
     * page at a time, an mprotect call each, and cannot be advised below. */
    mallopt(M_ARENA_MAX, 1);
    /* Buffers up to 32 MB (glibc's largest threshold; a larger one is
     * refused) come from the heap too, rather than from mappings of their
     * own with small pages, faulted afresh each time. */
    mallopt(M_MMAP_THRESHOLD, (int) (reserve < (32u << 20) ? reserve : (32u << 20)));
    mallopt(M_TOP_PAD, (int) reserve);
    mallopt(M_TRIM_THRESHOLD, (int) (2 * reserve));

    /* Grow the heap by the reserve now, while the break is known, and let the
     * kernel back it with 2 MB pages: a page fault then clears 2 MB, not 4 KB. */
    char *before = sbrk(0);
    /* volatile: a malloc whose block is only freed may be left out. */
    void *volatile probe = malloc(1 << 20);
    char *after = sbrk(0);
    free(probe);
    if (before == (char *) -1 || after == (char *) -1 || after <= before)
        return FALSE;
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t) before + page - 1) & ~(page - 1);
    if (start >= (uintptr_t) after)
        return FALSE;
    return madvise((void *) start, (uintptr_t) after - start, MADV_HUGEPAGE) == 0;
#else
    (void) reserve;
    return FALSE;
#endif
}
