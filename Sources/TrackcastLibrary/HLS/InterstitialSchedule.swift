import Foundation

/// What is decided about an HLS stream's interstitials while it plays:
/// which one is due when playback reaches a time, whether a seek may go
/// where it was asked, and where the primary content resumes after one.
/// The player only carries these decisions out.
///
/// An interstitial is played once per item: once it has started it is
/// marked played and not played again when playback passes its time again
/// (a seek back over it), as listeners expect of an ad they have sat through.
/// Only `X-ASSET-URI` interstitials are played; an `X-ASSET-LIST` one is
/// marked on the seek bar but not played.
public struct InterstitialSchedule: Sendable, Equatable {
    /// By start, earliest first.
    public private(set) var interstitials: [HLSInterstitial]
    /// The IDs of those that have started playing.
    public private(set) var played: Set<String> = []

    /// A start within this of a crossed time is that one's: crossings are
    /// reported at the times asked for, which went through `Duration`.
    static let tolerance = 0.001

    public init(_ interstitials: [HLSInterstitial]) {
        self.interstitials = interstitials.sorted { $0.start < $1.start }
    }

    /// The starts to watch playback cross: those still to play.
    public var pendingStarts: [Double] {
        interstitials.filter(isPlayable).map(\.start)
    }

    /// The interstitial to play now that playback has crossed `time`, if one
    /// starts there and has not played yet.
    public func due(at time: Double) -> HLSInterstitial? {
        interstitials.first { isPlayable($0) && abs($0.start - time) <= Self.tolerance }
    }

    /// How far past an interstitial's start playback may be when the
    /// schedule is first read for that one to play at once.
    public static let arrivalWindow = 0.5

    /// The interstitial to play at once when the schedule is first read with
    /// playback at `position`: one not yet played that starts there or just
    /// before. A pre-roll, at 0, is never crossed: playback starts on it.
    public func dueOnArrival(at position: Double) -> HLSInterstitial? {
        interstitials.first {
            isPlayable($0) && $0.start <= position + Self.tolerance && position - $0.start <= Self.arrivalWindow
        }
    }

    public mutating func markPlayed(_ interstitial: HLSInterstitial) {
        played.insert(interstitial.id)
    }

    /// What a seek of the primary content does.
    public enum SeekDecision: Sendable, Equatable {
        /// It goes where it was asked.
        case go
        /// A JUMP-restricted interstitial lies between: it plays first, then
        /// the primary goes on at the target.
        case playFirst(HLSInterstitial)
        /// Refused: a SKIP-restricted interstitial is playing.
        case refused
    }

    /// A seek of the primary content from `current` to `target`: forward
    /// over an unplayed JUMP-restricted interstitial (its start in
    /// `current…target`, the earliest such), that one plays first. Going
    /// back, or over one that may be jumped, goes straight there.
    public func seek(from current: Double, to target: Double) -> SeekDecision {
        guard target > current else { return .go }
        let over = interstitials.first {
            $0.forbidsJump && isPlayable($0) && $0.start >= current - Self.tolerance && $0.start <= target
        }
        return over.map(SeekDecision.playFirst) ?? .go
    }

    /// A seek asked for while `interstitial` plays: within its asset, unless
    /// it forbids skipping.
    public static func seek(during interstitial: HLSInterstitial) -> SeekDecision {
        interstitial.forbidsSkip ? .refused : .go
    }

    /// Where the primary content resumes after `interstitial` played to its
    /// end: its start plus its resume offset (`X-RESUME-OFFSET`), or, without
    /// one, plus how long its asset played (`assetDuration`; the date
    /// range's duration when the asset's is not known).
    public static func resumePosition(after interstitial: HLSInterstitial, assetDuration: Double?) -> Double {
        let offset = interstitial.resumeOffset ?? assetDuration ?? interstitial.duration ?? 0
        return min(interstitial.start + max(0, offset.isFinite ? offset : 0), HLSAttributes.maximumSeconds)
    }

    private func isPlayable(_ interstitial: HLSInterstitial) -> Bool {
        interstitial.assetURI != nil && !played.contains(interstitial.id)
    }
}
