import Foundation
import TrackcastCore
import TrackcastLibrary

/// An interstitial playing in place of the item on show: which one, its
/// assets and which of them plays, and where the item goes on after it.
/// Each asset is a load of its own in the player, so its events carry
/// their own item ID, and the item's next load (or any other) ends it.
struct InterstitialBreak {
    /// One asset to play: the interstitial's `X-ASSET-URI`, or an entry of its asset list.
    struct Asset: Equatable {
        let uri: URL
        /// As its list says; nil for an `X-ASSET-URI`.
        let listedDuration: Double?
    }

    let interstitial: HLSInterstitial
    /// In the order they play; never empty.
    let assets: [Asset]
    /// The one playing.
    private(set) var index = 0
    /// How long the assets before it played, in seconds; nil while none has.
    private(set) var playedSeconds: Double?
    /// Where the item was when the interstitial took its place.
    let leftAt: Duration
    /// The item's length, for the resume position saved meanwhile.
    let itemDuration: Duration?
    /// The item is live: after the break it goes back to its edge.
    let itemIsLive: Bool
    /// Where a seek over it (a JUMP-restricted one) asked to go; nil
    /// resumes at its resume offset.
    let then: Duration?
    /// It plays straight after another interstitial's assets, which ended:
    /// it plays on as they did.
    var followsAnother = false

    var asset: Asset { assets[index] }

    /// Where the item is, as far as the library and a stop are concerned.
    var itemPosition: Duration { then ?? leftAt }

    /// The asset playing ended after `seconds` (nil: it failed, and counts
    /// for nothing); returns whether another follows, now the one playing.
    mutating func assetEnded(after seconds: Double?) -> Bool {
        if let seconds { playedSeconds = (playedSeconds ?? 0) + seconds }
        guard index + 1 < assets.count else { return false }
        index += 1
        return true
    }
}
