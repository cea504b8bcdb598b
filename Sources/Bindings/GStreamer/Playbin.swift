import CGLib
import CGStreamer
import Synchronization

/// Playbins alive in the process, for leak checks in tests.
private let livePlaybins = Atomic<Int>(0)

/// A `playbin` (or `playbin3`) pipeline: one URI at a time, with the sinks,
/// filters and network settings a player needs.
public final class Playbin: Element {
    /// Which of GStreamer's two playbins.
    public enum Generation: String, Sendable {
        /// `playbin`: decodebin2 underneath; the legacy adaptive demuxers.
        case playbin
        /// `playbin3`: streams-aware, and the only one that plugs the new
        /// adaptive demuxers (`hlsdemux2`).
        case playbin3
    }

    /// How many playbins exist in the process right now.
    public static var liveCount: Int { livePlaybins.load(ordering: .relaxed) }

    public init(_ generation: Generation, name: String? = nil) throws(GStreamerError) {
        GStreamer.initialize()
        guard let made = gst_element_factory_make(generation.rawValue, name) else {
            throw .missingElement(generation.rawValue)
        }
        super.init(UnsafeMutableRawPointer(made), transfer: .full)
        livePlaybins.add(1, ordering: .relaxed)
    }

    deinit {
        // A pipeline must be in NULL before its last reference goes.
        gst_element_set_state(element, GST_STATE_NULL)
        livePlaybins.subtract(1, ordering: .relaxed)
    }

    /// The URI to play; takes effect on the next change from READY up.
    public var uri: String? {
        get { try? property("uri", as: String.self) }
        set { try? setProperty("uri", newValue ?? "") }
    }

    /// Playbin's flags in textual form, e.g. "audio+buffering" to play
    /// sound only and never decode video. Set them in NULL or READY.
    public func setFlags(_ flags: String) { setProperty("flags", fromString: flags) }

    public func setAudioSink(_ sink: Element?) { setProperty("audio-sink", element: sink) }
    public func setVideoSink(_ sink: Element?) { setProperty("video-sink", element: sink) }
    public func setAudioFilter(_ filter: Element?) { setProperty("audio-filter", element: filter) }

    /// The bandwidth to assume when choosing among stream variants, in kbit/s; 0 = measure it.
    public var connectionSpeed: UInt64 {
        get { (try? property("connection-speed", as: UInt64.self)) ?? 0 }
        set { try? setProperty("connection-speed", newValue) }
    }

    /// How much to buffer ahead of the playback position for network streams.
    public var bufferDuration: Duration? {
        get { (try? property("buffer-duration", as: Int64.self)).flatMap { $0 >= 0 ? .nanoseconds($0) : nil } }
        set { try? setProperty("buffer-duration", newValue.map { Int64($0.clockTime) } ?? -1) }
    }

    /// Called (on whatever thread creates it) with the source element of each
    /// new URI, to configure it: timeouts, user agent.
    public func onSourceSetup(_ handler: @escaping @Sendable (Element) -> Void) {
        onElementSignalFromAnyThread("source-setup", handler)
    }

    /// Called (on whatever thread adds it) with every element playbin plugs,
    /// e.g. to configure an adaptive demuxer.
    public func onElementSetup(_ handler: @escaping @Sendable (Element) -> Void) {
        onElementSignalFromAnyThread("element-setup", handler)
    }
}
