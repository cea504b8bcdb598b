import Foundation

/// An interstitial an HLS media playlist schedules (an `EXT-X-DATERANGE`
/// of `CLASS="com.apple.hls.interstitial"`), placed on the playlist's own
/// timeline through `EXT-X-PROGRAM-DATE-TIME`.
public struct HLSInterstitial: Sendable, Equatable {
    /// The date range's `ID`: unique within the playlist.
    public var id: String
    /// Where it starts, in seconds from the playlist's first segment.
    public var start: Double
    /// How long it covers the primary content (`DURATION`, else
    /// `PLANNED-DURATION`); nil when neither is given.
    public var duration: Double?
    /// The asset to play (`X-ASSET-URI`), or a list of them (`X-ASSET-LIST`), resolved against the playlist.
    public var assetURI: URL?
    public var assetList: URL?
    /// Where the primary resumes after it, from its start (`X-RESUME-OFFSET`);
    /// nil means after `duration` (or at once, for a live stream's point event).
    public var resumeOffset: Double?
    /// `X-RESTRICT="SKIP"`: skipping inside it is refused.
    public var forbidsSkip: Bool
    /// `X-RESTRICT="JUMP"`: a seek over it plays it first.
    public var forbidsJump: Bool
    /// When it plays, beside or instead of its date (`CUE`).
    public var cue: Cue

    /// The `CUE` attribute's triggers.
    public struct Cue: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `PRE`: before the primary starts, wherever it starts; its date does not matter.
        public static let pre = Cue(rawValue: 1)
        /// `POST`: once the primary has played to its end.
        public static let post = Cue(rawValue: 2)
        /// `ONCE`: at most once for the item, even when playback passes its time again.
        public static let once = Cue(rawValue: 4)
    }

    public init(id: String, start: Double, duration: Double? = nil, assetURI: URL? = nil, assetList: URL? = nil,
                resumeOffset: Double? = nil, forbidsSkip: Bool = false, forbidsJump: Bool = false, cue: Cue = []) {
        self.id = id
        self.start = start
        self.duration = duration
        self.assetURI = assetURI
        self.assetList = assetList
        self.resumeOffset = resumeOffset
        self.forbidsSkip = forbidsSkip
        self.forbidsJump = forbidsJump
        self.cue = cue
    }

    /// Placed on the primary's timeline by its date: neither PRE nor POST.
    public var isOnTimeline: Bool { cue.isDisjoint(with: [.pre, .post]) }

    /// The span of primary content it covers, for marks on the seek bar.
    public var range: ClosedRange<Double> { start...(start + max(0, duration ?? 0)) }
}
