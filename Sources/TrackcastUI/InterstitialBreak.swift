import TrackcastCore
import TrackcastLibrary

/// An interstitial playing in place of the item on show: which one, and
/// where the item goes on after it. The asset is a load of its own in the
/// player, so its events carry their own item ID, and the item's next load
/// (or any other) ends it.
struct InterstitialBreak {
    let interstitial: HLSInterstitial
    /// Where the item was when the interstitial took its place.
    let leftAt: Duration
    /// The item's length, for the resume position saved meanwhile.
    let itemDuration: Duration?
    /// Where a seek over it (a JUMP-restricted one) asked to go; nil
    /// resumes at its resume offset.
    let then: Duration?

    /// Where the item is, as far as the library and a stop are concerned.
    var itemPosition: Duration { then ?? leftAt }
}
