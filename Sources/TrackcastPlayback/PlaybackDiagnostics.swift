import Bindings

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
}
