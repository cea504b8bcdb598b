import Bindings
import TrackcastCore

/// How every source element is configured, in the player's pipeline and in
/// the asset loader's probe alike. Runs on whichever thread GStreamer creates
/// the source on, so it only sets properties (which is thread-safe).
struct SourceSettings: Sendable {
    var networkTimeout: Duration

    func apply(to source: Element) {
        if source.hasProperty("timeout") {
            // souphttpsrc: seconds without data before it fails. Twice the
            // player's own limit, so the player's stall watch (which can say
            // "timeout", where the source's error cannot) comes first.
            try? source.setProperty("timeout", UInt32(clamping: max(1, 2 * networkTimeout.components.seconds)))
        }
        if source.hasProperty("user-agent") {
            try? source.setProperty("user-agent", "\(AppIdentity.name)/\(AppIdentity.version)")
        }
    }
}
