import Foundation

extension Date {
    /// Whole seconds since 1970, rounded down; `nil` for a date no `Int64` can
    /// hold (only a decoded, hand-made `Date` can be that far out), instead of a trap.
    var unixSeconds: Int64? {
        Int64(exactly: timeIntervalSince1970.rounded(.down))
    }
}
