/// A one-time fact about one loaded item, for work that must happen exactly
/// once per item (reading its duration and chapters when it is ready, going
/// on to the next episode when it ends, offering Retry when it fails).
/// Unlike `PlaybackState`, whose stream keeps only the newest value, these
/// are never dropped.
public enum ItemEvent: Sendable, Equatable, CustomStringConvertible {
    case ready(isLive: Bool)
    case ended
    case failed(PlaybackError)
    /// Paused by something other than the listener; Play goes on.
    case interrupted(Interruption)

    public enum Interruption: String, Sendable, Equatable {
        /// The sound server corked the stream: another needs the sound (a call).
        case soundServer
        /// The output device it played on went away (headphones unplugged).
        case outputGone
    }

    public var description: String {
        switch self {
        case .interrupted(let why): "interrupted: \(why.rawValue)"
        case .ready(let isLive): isLive ? "ready (live)" : "ready"
        case .ended: "ended"
        case .failed(let error): "failed: \(error.code)"
        }
    }
}
