/// A one-time fact about one loaded item, for work that must happen exactly
/// once per item (reading its duration and chapters when it is ready, going
/// on to the next episode when it ends, offering Retry when it fails).
/// Unlike `PlaybackState`, whose stream keeps only the newest value, these
/// are never dropped.
public enum ItemEvent: Sendable, Equatable, CustomStringConvertible {
    case ready(isLive: Bool)
    case ended
    case failed(PlaybackError)

    public var description: String {
        switch self {
        case .ready(let isLive): isLive ? "ready (live)" : "ready"
        case .ended: "ended"
        case .failed(let error): "failed: \(error.code)"
        }
    }
}
