/// Where playback of one item stands.
public enum PlaybackPhase: Sendable, Equatable, CustomStringConvertible {
    case idle
    case loading
    /// Loaded and prerolled; a live stream cannot seek or pause in place.
    case ready(isLive: Bool)
    case playing
    case paused
    /// Waiting for the network; playback resumes at 100.
    case buffering(percent: Int)
    case ended
    case failed(PlaybackError)

    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .ready(let isLive): isLive ? "ready (live)" : "ready"
        case .playing: "playing"
        case .paused: "paused"
        case .buffering(let percent): "buffering \(percent)%"
        case .ended: "ended"
        case .failed(let error): "failed: \(error.code)"
        }
    }

    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// The published state: a phase and the load it belongs to (none before the
/// first load).
public struct PlaybackState: Sendable, Equatable, CustomStringConvertible {
    public let itemID: PlaybackItemID?
    public let phase: PlaybackPhase

    public init(itemID: PlaybackItemID?, phase: PlaybackPhase) {
        self.itemID = itemID
        self.phase = phase
    }

    public static let initial = PlaybackState(itemID: nil, phase: .idle)

    public var description: String { "\(itemID.map(String.init(describing:)) ?? "-") \(phase)" }
}
