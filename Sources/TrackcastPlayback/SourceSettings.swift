import Bindings
import TrackcastCore

/// How every source element is configured, in the player's pipeline and in
/// the asset loader's probe alike. Runs on whichever thread GStreamer creates
/// the source on, so it only sets properties (which is thread-safe).
struct SourceSettings: Sendable {
    var networkTimeout: Duration

    func apply(to source: Element) {
        if source.hasProperty("timeout") {
            // souphttpsrc: seconds without data before it fails.
            try? source.setProperty("timeout", UInt32(clamping: max(1, networkTimeout.components.seconds)))
        }
        if source.hasProperty("user-agent") {
            try? source.setProperty("user-agent", "\(AppIdentity.name)/\(AppIdentity.version)")
        }
    }
}
