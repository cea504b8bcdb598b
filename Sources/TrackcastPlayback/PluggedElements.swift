import Synchronization

/// What the pipeline plugged for the current item: which decoders it may
/// use and which it got, and whether a stream demuxer (HLS, DASH, Smooth
/// Streaming, ICY radio) says the item is a stream rather than a file.
/// Written on the main actor at each load, read and appended from
/// GStreamer's threads as it plugs elements.
final class PluggedElements: Sendable {
    private struct State {
        var decodesVideo = true
        var decoders: [String] = []
        var streamDemuxer: String?
    }

    /// Demuxers of formats that are streams, not files: a playlist without
    /// an end is live, and so is internet radio.
    private static let streamDemuxers: Set<String> = [
        "hlsdemux", "hlsdemux2", "dashdemux", "dashdemux2", "mssdemux", "mssdemux2", "icydemux",
    ]

    private let state = Mutex(State())

    /// A new item: forget what was plugged, and say whether video may be decoded.
    func reset(decodesVideo: Bool) {
        state.withLock { $0 = State(decodesVideo: decodesVideo) }
    }

    var decodesVideo: Bool { state.withLock { $0.decodesVideo } }

    /// Notes an element the pipeline plugged, by its factory.
    func note(_ factory: String, isDecoder: Bool) {
        state.withLock { state in
            if isDecoder { state.decoders.append(factory) }
            if Self.streamDemuxers.contains(factory) { state.streamDemuxer = factory }
        }
    }

    var decoders: [String] { state.withLock { $0.decoders } }
    var streamDemuxer: String? { state.withLock { $0.streamDemuxer } }
}
