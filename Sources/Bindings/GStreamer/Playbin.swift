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
    public func setVideoFilter(_ filter: Element?) { setProperty("video-filter", element: filter) }

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

    /// An external subtitle file to show over the video (`suburi`), e.g.
    /// the `.srt` beside a film; it joins the text streams. Takes effect,
    /// like `uri`, on the next change from READY up.
    public var subtitleURI: String? {
        get { (try? property("suburi", as: String.self)).flatMap { $0.isEmpty ? nil : $0 } }
        set {
            // NULL, not "": playbin warns of an invalid URI for an empty one.
            var value = GValue()
            g_value_init(&value, tc_type_string())
            defer { g_value_unset(&value) }
            g_value_set_string(&value, newValue)
            g_object_set_property(objectPointer, "suburi", &value)
        }
    }

    /// The kinds of stream a listener or viewer chooses among.
    public enum ChoosableStream: Sendable {
        case audio, text

        fileprivate var prefix: String { self == .audio ? "audio" : "text" }
    }

    /// How many streams of `kind` the current item has (`n-audio`, `n-text`);
    /// known once it has prerolled.
    public func streamCount(_ kind: ChoosableStream) -> Int {
        Int((try? property("n-\(kind.prefix)", as: Int32.self)) ?? 0)
    }

    /// The stream of `kind` that plays (`current-audio`, `current-text`);
    /// nil before one is chosen. A text stream is chosen even while
    /// subtitles are off (the flags' text bit): it is what they show when on.
    public func currentStream(_ kind: ChoosableStream) -> Int? {
        let index = Int((try? property("current-\(kind.prefix)", as: Int32.self)) ?? -1)
        return index >= 0 ? index : nil
    }

    /// Switches to stream `index` of `kind` at once, without a seek.
    public func setCurrentStream(_ kind: ChoosableStream, _ index: Int) {
        try? setProperty("current-\(kind.prefix)", Int32(clamping: index))
    }

    /// Whether text stream `index` comes from another source than the
    /// media's own streams: the subtitle file (`subtitleURI`). A stream's
    /// ID starts with a hash of the URI it was read from (GStreamer makes
    /// it so), and playbin orders the file's stream among the media's by
    /// whichever typefinder finished first. Nil when the IDs are not known yet.
    public func isTextStreamFromOtherSource(_ index: Int) -> Bool? {
        func source(_ signal: String, _ index: Int) -> Substring? {
            guard let id = tc_playbin_stream_id(element, signal, Int32(clamping: index)) else { return nil }
            defer { g_free(id) }
            return String(cString: id).split(separator: "/", maxSplits: 1).first
        }
        let reference = source("get-video-pad", 0) ?? source("get-audio-pad", 0)
        guard let reference, let text = source("get-text-pad", index) else { return nil }
        return text != reference
    }

    /// The tags of stream `index` of `kind`: its language and title.
    public func streamTags(_ kind: ChoosableStream, _ index: Int) -> MediaTags? {
        guard let list = tc_playbin_stream_tags(element, "get-\(kind.prefix)-tags", Int32(clamping: index)) else {
            return nil
        }
        defer { gst_tag_list_unref(list) }
        return MediaTags(UnsafePointer(list))
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
