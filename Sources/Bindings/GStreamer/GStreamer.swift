import CGStreamer
import CTrackcastAudio
import Glibc

/// GStreamer as a whole: initialisation and what is installed.
public enum GStreamer {
    /// A lazily initialised global runs its initialiser exactly once, from
    /// whichever thread asks first, which is what `gst_init` needs.
    private static let initialized: Bool = {
        preferLibsoup2()
        gst_init(nil, nil)
        // Trackcast's own elements (tcskipsilence, tcvoiceboost), by name like any other.
        tc_audio_effects_register()
        // The tests read it: answering GNOME Shell's search must not start GStreamer.
        Log.debug("gstreamer: initialised")
        return true
    }()

    /// GStreamer's HTTP source loads libsoup 3 when it can, unless libsoup 2
    /// is already in the process. With 1.22.0 and libsoup 3 it crashes
    /// (NULL dereferences inside libsoup on its worker threads) when HTTP
    /// streams are started and torn down quickly, which the player's stress
    /// test does within a minute; with libsoup 2 it does not. So libsoup 2 is
    /// loaded first, into the global namespace where the source looks for
    /// it, unless libsoup 3 is already loaded (the two cannot share a process).
    private static func preferLibsoup2() {
        if let loaded = dlopen("libsoup-3.0.so.0", RTLD_NOW | RTLD_NOLOAD) {
            dlclose(loaded)
            return
        }
        _ = dlopen("libsoup-2.4.so.1", RTLD_NOW | RTLD_GLOBAL)
    }

    /// Initialises GStreamer once; cheap to call again. Every wrapper that
    /// creates GStreamer objects calls it first.
    public static func initialize() {
        _ = initialized
    }

}

/// Converting between Swift durations and GStreamer clock times (nanoseconds,
/// with all bits set meaning "none").
extension Duration {
    static let clockTimeNone = GstClockTime.max

    /// nil for GStreamer's "none".
    init?(clockTime: GstClockTime) {
        guard clockTime != Self.clockTimeNone else { return nil }
        self = .nanoseconds(Int64(clamping: clockTime))
    }

    /// Negative durations become zero: GStreamer has no negative clock times.
    var clockTime: GstClockTime {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return GstClockTime(seconds) * 1_000_000_000 + GstClockTime(attoseconds / 1_000_000_000)
    }
}
