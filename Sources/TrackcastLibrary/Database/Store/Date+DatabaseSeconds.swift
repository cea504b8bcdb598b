import Foundation

extension Date {
    /// Whole seconds since 1970, rounded down: how the library stores dates
    /// (the rounding of `FeedEpisodeIdentity.key`). A date beyond `Int64`
    /// (only a hand-made one can be) clamps instead of trapping.
    var databaseSeconds: Int64 {
        let seconds = timeIntervalSince1970.rounded(.down)
        return Int64(exactly: seconds) ?? (seconds < 0 ? .min : .max)
    }

    init(databaseSeconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(databaseSeconds))
    }
}
