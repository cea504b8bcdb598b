import Foundation

/// Where playback picks up again, and when an episode counts as finished.
public struct ResumePolicy: Sendable, Equatable {
    /// A pause at least this long makes playback start a little earlier,
    /// so the listener finds the thread again.
    public var longPause: TimeInterval
    /// How far back it starts after a long pause.
    public var rewind: TimeInterval

    public init(longPause: TimeInterval = 300, rewind: TimeInterval = 5) {
        self.longPause = longPause
        self.rewind = rewind
    }

    /// Where to start playing what was left at `saved`, `now`.
    public func start(from saved: ResumePosition, now: Date = Date()) -> TimeInterval {
        start(from: saved.position, pausedFor: now.timeIntervalSince(saved.updated))
    }

    /// Where to continue from `position` after a pause of `pausedFor` seconds.
    public func start(from position: TimeInterval, pausedFor: TimeInterval) -> TimeInterval {
        guard pausedFor >= longPause, rewind > 0 else { return position }
        return max(0, position - rewind)
    }

    /// An episode is finished in its last 30 s, or its last 5 % when that is
    /// shorter (so a 2-minute clip is not finished at its half).
    public static func isFinished(position: TimeInterval, duration: TimeInterval?) -> Bool {
        guard let duration, duration > 0 else { return false }
        let remaining = min(30, duration * 0.05)
        return position >= duration - remaining
    }
}
