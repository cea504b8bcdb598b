import CTrackcastSupport

/// The malloc heap of a headless command: one for all threads, grown once by
/// `reserve` bytes backed by transparent huge pages where the kernel allows.
///
/// Parsing a 10 MB feed touches some 25 MB of fresh memory; with 4 KB pages
/// that is 6,000 page faults, each clearing 4 KB, plus an `mprotect` call for
/// each page a worker thread's own arena grows by. Not for the window: a
/// long-lived process should give memory back, and it does not parse feeds
/// of that size on one thread.
public enum BatchHeap {
    /// Call first thing, before other threads allocate. Returns whether huge pages were advised.
    @discardableResult
    public static func preferLargePages(reserve: Int = 64 << 20) -> Bool {
        tc_batch_heap_prefer_large_pages(gsize(reserve)) != 0
    }
}
