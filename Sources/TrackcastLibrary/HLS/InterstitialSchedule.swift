import Foundation

/// What is decided about an HLS stream's interstitials while it plays:
/// which one is due when playback reaches a time, starts or ends, whether
/// a seek may go where it was asked, and where the primary content resumes
/// after one. The player only carries these decisions out.
///
/// As the HLS specification has it (rfc8216bis, appendix D): one placed on
/// the timeline plays each time playback crosses its start, so a seek back
/// before it plays it again, unless its `CUE` says `ONCE`; it is not played
/// again while playback has not gone back before it (the primary resuming
/// at its start, after an `X-RESUME-OFFSET` of 0, does not bring it back).
/// A `PRE` one plays before the primary starts, wherever it starts, and a
/// `POST` one when the primary ends: each once for the item.
public struct InterstitialSchedule: Sendable, Equatable {
    /// By start, earliest first.
    public private(set) var interstitials: [HLSInterstitial]
    /// The IDs of those that have started playing and are not due again
    /// until a seek goes back before them.
    public private(set) var played: Set<String> = []

    /// A start within this of a crossed time is that one's: crossings are
    /// reported at the times asked for, which went through `Duration`.
    static let tolerance = 0.001

    public init(_ interstitials: [HLSInterstitial]) {
        self.interstitials = interstitials.sorted { $0.start < $1.start }
    }

    /// The starts to watch playback cross: those on the timeline still to play.
    public var pendingStarts: [Double] {
        interstitials.filter { $0.isOnTimeline && isPlayable($0) }.map(\.start)
    }

    /// The interstitial to play now that playback has crossed `time`, if one
    /// on the timeline starts there and has not played yet.
    public func due(at time: Double) -> HLSInterstitial? {
        interstitials.first { $0.isOnTimeline && isPlayable($0) && abs($0.start - time) <= Self.tolerance }
    }

    /// The interstitial to play now that the primary has played to its end: a `POST` one not yet played.
    public var dueAtEnd: HLSInterstitial? {
        interstitials.first { $0.cue.contains(.post) && isPlayable($0) }
    }

    /// How far past an interstitial's start playback may be when the
    /// schedule is first read for that one to play at once.
    public static let arrivalWindow = 0.5

    /// The interstitial to play at once when the schedule is first read with
    /// playback at `position`: a `PRE` one not yet played, wherever playback
    /// is; else one on the timeline not yet played that starts there or
    /// just before. A pre-roll, at 0, is never crossed: playback starts on it.
    public func dueOnArrival(at position: Double) -> HLSInterstitial? {
        interstitials.first { $0.cue.contains(.pre) && isPlayable($0) } ?? interstitials.first {
            $0.isOnTimeline && isPlayable($0) && $0.start <= position + Self.tolerance
                && position - $0.start <= Self.arrivalWindow
        }
    }

    /// A live playlist read again, its window now starting at `windowStart`
    /// on the same timeline, schedules `current`: those it adds are
    /// scheduled (a `PRE` one as played: the item has started). One the
    /// schedule had keeps its place and whether it played (the
    /// specification has a date range keep its attributes under its ID).
    /// One gone from the playlist is dropped if it is still to come (after
    /// the window's start, not played: the server withdrew it, as
    /// `EXT-X-SKIP`'s `RECENTLY-REMOVED-DATERANGES` tells a client of a
    /// delta update) and kept otherwise (it slid out of the window with its
    /// segments, or played). Returns whether the schedule changed.
    @discardableResult
    public mutating func reloaded(_ current: [HLSInterstitial], windowStart: Double) -> Bool {
        let known = Set(interstitials.map(\.id))
        let present = Set(current.map(\.id))
        let withdrawn = interstitials.filter {
            !present.contains($0.id) && $0.isOnTimeline && !played.contains($0.id) && $0.start >= windowStart - Self.tolerance
        }
        let added = current.filter { !known.contains($0.id) }
        guard !withdrawn.isEmpty || !added.isEmpty else { return false }
        let dropped = Set(withdrawn.map(\.id))
        interstitials = (interstitials.filter { !dropped.contains($0.id) } + added).sorted { $0.start < $1.start }
        played.formUnion(added.filter { $0.cue.contains(.pre) }.map(\.id))
        return true
    }

    public mutating func markPlayed(_ interstitial: HLSInterstitial) {
        played.insert(interstitial.id)
    }

    /// A seek of the primary landed at `target`: those on the timeline that
    /// start after it, played but not `ONCE`, are due again when playback
    /// crosses them. Returns whether any is.
    @discardableResult
    public mutating func sought(to target: Double) -> Bool {
        let again = interstitials.filter {
            $0.isOnTimeline && !$0.cue.contains(.once) && played.contains($0.id) && $0.start > target + Self.tolerance
        }
        played.subtract(again.map(\.id))
        return !again.isEmpty
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
            $0.isOnTimeline && $0.forbidsJump && isPlayable($0) && $0.start >= current - Self.tolerance
                && $0.start <= target
        }
        return over.map(SeekDecision.playFirst) ?? .go
    }

    /// A seek asked for while `interstitial` plays: within its asset, unless
    /// it forbids skipping.
    public static func seek(during interstitial: HLSInterstitial) -> SeekDecision {
        interstitial.forbidsSkip ? .refused : .go
    }

    /// What the primary does once an interstitial's assets have played.
    public enum Resumption: Sendable, Equatable {
        /// It plays on from this time.
        case at(Double)
        /// It goes back to its live edge: a live stream's time went on meanwhile.
        case liveEdge
        /// It has ended: the interstitial was a `POST` one.
        case ended
    }

    /// Where the primary content goes on after `interstitial` played to its
    /// end, when it had been left at `leftAt`: a `PRE` one hands on to where
    /// the primary was to start, a `POST` one ends it, a live stream goes
    /// back to its edge. Otherwise at the interstitial's start plus its
    /// resume offset (`X-RESUME-OFFSET`), or, without one, plus how long its
    /// assets played (`assetDuration`); the date range's duration when that
    /// is not known.
    public static func resumption(after interstitial: HLSInterstitial, assetDuration: Double?, leftAt: Double,
                                  isLive: Bool) -> Resumption {
        if interstitial.cue.contains(.post) { return .ended }
        if isLive { return .liveEdge }
        if interstitial.cue.contains(.pre) { return .at(leftAt) }
        return .at(resumePosition(after: interstitial, assetDuration: assetDuration))
    }

    /// The start plus the resume offset, as `resumption` reads it for one on the timeline.
    public static func resumePosition(after interstitial: HLSInterstitial, assetDuration: Double?) -> Double {
        let offset = interstitial.resumeOffset ?? assetDuration ?? interstitial.duration ?? 0
        return min(interstitial.start + max(0, offset.isFinite ? offset : 0), HLSAttributes.maximumSeconds)
    }

    private func isPlayable(_ interstitial: HLSInterstitial) -> Bool {
        (interstitial.assetURI != nil || interstitial.assetList != nil) && !played.contains(interstitial.id)
    }
}
