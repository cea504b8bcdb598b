import Bindings
import TrackcastCore

/// How every source element is configured, in the player's pipeline and in
/// the asset loader's probe alike. Runs on whichever thread GStreamer creates
/// the source on, so it only sets properties (which is thread-safe).
struct SourceSettings: Sendable {
    /// souphttpsrc's seconds without data before it fails; nil keeps its
    /// default (15 s). The player keeps the default: a source with any other
    /// value makes a libsoup session of its own, with a thread and new
    /// connections, at every load, where the default shares the pipeline's
    /// session and its open connections (GStreamer 1.22's `can_share`); that
    /// cost each load over HTTP 3-4 ms here, on loopback. The player's own
    /// stall watch (`PlayerConfiguration.networkTimeout`, shorter) says
    /// "timeout" first, which the source's error cannot.
    var sourceTimeout: Duration?

    func apply(to source: Element) {
        if let sourceTimeout, source.hasProperty("timeout") {
            try? source.setProperty("timeout", UInt32(clamping: max(1, sourceTimeout.components.seconds)))
        }
        if source.hasProperty("user-agent") {
            try? source.setProperty("user-agent", "\(AppIdentity.name)/\(AppIdentity.version)")
        }
    }
}
