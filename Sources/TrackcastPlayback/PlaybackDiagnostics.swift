import Bindings
import Synchronization

/// Events of replaced items the controllers dropped, process-wide: bus
/// messages left when an item was torn down, and task results.
let staleMessageCount = Atomic<Int>(0)
let staleErrorCount = Atomic<Int>(0)
let staleTaskResultCount = Atomic<Int>(0)

/// Counts what a teardown dropped from the bus as stale.
func countStale(_ dropped: DiscardedMessages) {
    staleMessageCount.add(dropped.count, ordering: .relaxed)
    staleErrorCount.add(dropped.errors, ordering: .relaxed)
}

/// Counts of what the playback engine holds, process-wide, so tests and
/// debugging can see leaks: each should fall back when an item or a player goes.
public enum PlaybackDiagnostics {
    /// playbin pipelines alive.
    public static var pipelines: Int { Playbin.liveCount }
    /// Bus watches attached.
    public static var busWatches: Int { BusWatch.liveCount }
    /// Asset probes (GstDiscoverers) alive.
    public static var probes: Int { Discoverer.liveCount }
    /// Observer tasks (position tick loops, boundary timers) running.
    public static var observerTasks: Int { ItemObservers.liveTaskCount }
    /// Bus messages of items already replaced or stopped, dropped when the
    /// item was torn down (one playbin serves every item, so they would
    /// otherwise be handled as the next item's). Only grows; a test that
    /// claims the stale path ran checks that it moved.
    public static var staleMessagesDropped: Int { staleMessageCount.load(ordering: .relaxed) }
    /// Of those, the errors: a replaced item's failure that never showed. Only grows.
    public static var staleErrorsDropped: Int { staleErrorCount.load(ordering: .relaxed) }
    /// Probes, classifications and timers that finished for an item no
    /// longer current, and were dropped. Only grows.
    public static var staleTaskResultsDropped: Int { staleTaskResultCount.load(ordering: .relaxed) }
}
