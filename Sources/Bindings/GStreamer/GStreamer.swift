import CGStreamer

/// GStreamer as a whole: initialisation and what is installed.
public enum GStreamer {
    /// A lazily initialised global runs its initialiser exactly once, from
    /// whichever thread asks first, which is what `gst_init` needs.
    private static let initialized: Bool = {
        gst_init(nil, nil)
        return true
    }()

    /// Initialises GStreamer once; cheap to call again. Every wrapper that
    /// creates GStreamer objects calls it first.
    public static func initialize() {
        _ = initialized
    }

    /// Whether an element factory (a plug-in feature such as "opusdec") is installed.
    public static func hasElement(_ factory: String) -> Bool {
        initialize()
        guard let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
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
