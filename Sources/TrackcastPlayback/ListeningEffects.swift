import Bindings

/// The listening effects a player applies to every item: both off by default.
public struct ListeningEffects: Sendable, Equatable {
    /// Shortens every silence longer than `keptSilence` to that length.
    public var skipsSilence: Bool
    /// Compresses loud passages and raises everything, so quiet voices come up.
    public var boostsVoice: Bool

    /// How much of each silence skipping leaves in: enough for speech to breathe.
    public static let keptSilence: Duration = .milliseconds(300)

    public init(skipsSilence: Bool = false, boostsVoice: Bool = false) {
        self.skipsSilence = skipsSilence
        self.boostsVoice = boostsVoice
    }
}

/// The effects for one item: `scaletempo ! tcskipsilence ! tcvoiceboost`
/// in a bin with ghost pads, put in front of the output's volume
/// (`AudioOutputBin`) only once the item needs one of them: a rate other
/// than 1 (scaletempo keeps the pitch) or an effect switched on. Each
/// element costs the first buffer about 0.3 ms of caps queries and state
/// changes, so an item that needs none starts without them.
///
/// Both effects are in the chain once it is there, switched by a property
/// the elements read for each buffer, so a toggle applies at once, with no
/// state change, no renegotiation and no flush: the audio already queued in
/// the sink plays as it was. The elements are Trackcast's own
/// (`Sources/CTrackcastAudio`): GStreamer's `removesilence` takes only mono
/// 16-bit audio (stereo would be mixed down even with it off) and leaves
/// positions behind the media by the time it cut; `audiodynamic` works on
/// each sample alone, which distorts speech instead of levelling it.
@MainActor
final class ListeningEffectsChain {
    let bin: Element
    private let silenceSkipper: Element
    private let voiceBooster: Element

    init(_ effects: ListeningEffects) throws(GStreamerError) {
        bin = try Element.bin(describedBy: "scaletempo ! tcskipsilence name=skip ! tcvoiceboost name=boost")
        // The description names them, so they are there if the bin parsed.
        silenceSkipper = bin.child(named: "skip")!
        voiceBooster = bin.child(named: "boost")!
        try? silenceSkipper.setProperty("kept-silence", UInt64(ListeningEffects.keptSilence / .nanoseconds(1)))
        apply(effects)
    }

    func apply(_ effects: ListeningEffects) {
        try? silenceSkipper.setProperty("remove", effects.skipsSilence)
        try? voiceBooster.setProperty("enabled", effects.boostsVoice)
    }

    /// The listening time skipping has cut from this item so far (at the speed it was played).
    var timeSaved: Duration {
        .nanoseconds(Int64(clamping: (try? silenceSkipper.property("removed", as: UInt64.self)) ?? 0))
    }
}
