import Synchronization

/// Which decoders the current item may use and which it got. Written on the
/// main actor at each load, read and appended from GStreamer's threads as it
/// plugs elements.
final class DecoderChoices: Sendable {
    private struct State {
        var decodesVideo = true
        var plugged: [String] = []
    }

    private let state = Mutex(State())

    /// A new item: forget what was plugged, and say whether video may be decoded.
    func reset(decodesVideo: Bool) {
        state.withLock { $0 = State(decodesVideo: decodesVideo) }
    }

    var decodesVideo: Bool { state.withLock { $0.decodesVideo } }

    func note(_ factory: String) { state.withLock { $0.plugged.append(factory) } }
    var plugged: [String] { state.withLock { $0.plugged } }
}
