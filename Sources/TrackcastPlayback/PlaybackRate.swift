/// A playback speed the player accepts: 0.5× to 3×, pitch preserved.
public struct PlaybackRate: Sendable, Equatable, Hashable, Comparable {
    public static let range: ClosedRange<Double> = 0.5...3.0
    public static let normal = PlaybackRate(1.0)

    public let value: Double

    /// Clamps into `range`; a value that is not a number means normal speed.
    public init(_ value: Double) {
        self.value = value.isNaN ? 1.0 : min(max(value, Self.range.lowerBound), Self.range.upperBound)
    }

    public static func < (lhs: PlaybackRate, rhs: PlaybackRate) -> Bool { lhs.value < rhs.value }
}
