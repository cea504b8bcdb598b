/// Times that come from outside (a feed, a chapters or transcript file, a
/// media tag, the command line, D-Bus) as numbers of seconds.
/// `Duration.seconds(_:)` traps on infinity, NaN and anything past about
/// 1.7e20 s, and a file that crashes the app is read again every time its
/// episode is opened: such a number becomes a time only through here.
public enum MediaTime {
    /// Longer than any episode (about 116 days); any time past it is taken as it.
    public static let maximumSeconds: Double = 10_000_000

    /// A time read from a file: `nil` if it is not a number at all (NaN,
    /// infinite), otherwise clamped to 0…`maximumSeconds`.
    public static func seconds(_ seconds: Double) -> Double? {
        guard seconds.isFinite else { return nil }
        return min(max(seconds, 0), maximumSeconds)
    }
}

extension Duration {
    /// `seconds` as a Duration of whole nanoseconds, clamped to
    /// ±`MediaTime.maximumSeconds` (negative times are offsets, as in a
    /// relative seek); `nil` for NaN and the infinities.
    public init?(clampingSeconds seconds: Double) {
        guard seconds.isFinite else { return nil }
        let clamped = min(max(seconds, -MediaTime.maximumSeconds), MediaTime.maximumSeconds)
        // Nanoseconds, not `.seconds(clamped)`: decimal times ("1.001") come out exact.
        self = .nanoseconds(Int64((clamped * 1e9).rounded()))
    }
}
