/// Caps on what an adaptive stream (HLS, DASH) may fetch: the data saver.
/// nil is no cap.
public struct StreamLimits: Sendable, Equatable, CustomStringConvertible {
    /// The tallest video variant to choose, in pixels.
    public var maximumHeight: Int?
    /// The highest variant bitrate to choose, in bit/s.
    public var maximumBitrate: Int?

    public init(maximumHeight: Int? = nil, maximumBitrate: Int? = nil) {
        self.maximumHeight = maximumHeight.flatMap { $0 > 0 ? $0 : nil }
        self.maximumBitrate = maximumBitrate.flatMap { $0 > 0 ? $0 : nil }
    }

    /// From the preferences' numbers, where 0 is no cap: a height in pixels
    /// and a bitrate in kbit/s. Out-of-range numbers are no cap, never a trap.
    public init(height: Int, kilobitsPerSecond: Int) {
        let bits = kilobitsPerSecond.multipliedReportingOverflow(by: 1000)
        self.init(maximumHeight: height, maximumBitrate: bits.overflow ? nil : bits.partialValue)
    }

    /// The caps in force: the metered variant while the network is metered.
    public static func inForce(normal: StreamLimits, metered: StreamLimits, isMetered: Bool) -> StreamLimits {
        guard isMetered else { return normal }
        // Metered is never looser than normal: each cap is the tighter of the two.
        func tighter(_ a: Int?, _ b: Int?) -> Int? { [a, b].compactMap { $0 }.min() }
        return StreamLimits(maximumHeight: tighter(normal.maximumHeight, metered.maximumHeight),
                            maximumBitrate: tighter(normal.maximumBitrate, metered.maximumBitrate))
    }

    /// The bitrate cap (bit/s) under which a demuxer that chooses among
    /// `variants` by bandwidth alone (GStreamer 1.22's hlsdemux) keeps within
    /// both caps: the bitrate cap, lowered to the bandwidth of the best variant
    /// no taller than the height cap, or of the shortest when none is that
    /// short. A ladder where a taller variant needs less bandwidth than a
    /// shorter one can still let the taller through; real ladders rise together.
    public func bitrateCap(among variants: [StreamVariant]) -> Int? {
        guard let maximumHeight else { return maximumBitrate }
        let sized = variants.compactMap { variant in variant.height.map { (height: $0, bandwidth: variant.bandwidth) } }
        guard let shortest = sized.map(\.height).min(),
              let heightCap = sized.filter({ $0.height <= max(maximumHeight, shortest) }).map(\.bandwidth).max()
        else { return maximumBitrate }
        return min(heightCap, maximumBitrate ?? heightCap)
    }

    public var description: String {
        let height = maximumHeight.map { "\($0)p" } ?? "any height"
        let bitrate = maximumBitrate.map { "\($0 / 1000) kbit/s" } ?? "any bitrate"
        return "\(height), \(bitrate)"
    }
}
