import Bindings
import Synchronization
import TrackcastCore

/// The data saver's caps as the pipeline's threads read them: playbin
/// makes its adaptive demuxer on a streaming thread, while the caps change
/// on the main actor.
final class StreamLimitSetting: Sendable {
    private let state: Mutex<(limits: StreamLimits, variants: [StreamVariant])>
    /// The configuration's assumed bandwidth (kbit/s), used while no bitrate cap is set.
    private let configuredSpeed: Int?

    init(_ limits: StreamLimits, connectionSpeed: Int?) {
        state = Mutex((limits, []))
        configuredSpeed = connectionSpeed
    }

    var limits: StreamLimits {
        get { state.withLock { $0.limits } }
        set { state.withLock { $0.limits = newValue } }
    }

    /// The variants of the stream playing, from its master playlist (which
    /// the app reads): how a height cap becomes a bandwidth. Empty until read.
    var variants: [StreamVariant] {
        get { state.withLock { $0.variants } }
        set { state.withLock { $0.variants = newValue } }
    }

    /// playbin's `connection-speed` in kbit/s, for a demuxer that chooses by
    /// bandwidth alone: with a cap the demuxer takes the cap for the
    /// bandwidth, so it starts on the best variant under it instead of the
    /// lowest; 0 lets it measure. A height cap counts as the bandwidth of the
    /// variants under it (`StreamLimits.bitrateCap(among:)`); until the
    /// variants are known it holds the stream on its lowest, as a data saver
    /// should rather than start above the cap.
    var connectionSpeed: UInt64 {
        let (limits, variants) = state.withLock { ($0.limits, $0.variants) }
        if limits.maximumHeight != nil, variants.isEmpty { return 1 }
        return Self.kilobits(limits.bitrateCap(among: variants)) ?? UInt64(max(0, configuredSpeed ?? 0))
    }

    /// `connection-speed` for a demuxer that caps the height itself (`max-video-height`).
    private var bitrateOnlySpeed: UInt64 {
        Self.kilobits(limits.maximumBitrate) ?? UInt64(max(0, configuredSpeed ?? 0))
    }

    /// Rounded up: a variant of 800,500 bit/s stays under a cap that is its own bandwidth.
    private static func kilobits(_ bitrate: Int?) -> UInt64? {
        bitrate.map { UInt64($0 / 1000 + ($0 % 1000 == 0 ? 0 : 1)) }
    }

    /// The demuxers that choose among a stream's variants. playbin's
    /// decodebin plugs hlsdemux (not hlsdemux2) on GStreamer 1.22.
    private static let adaptiveDemuxers: Set<String> = [
        "hlsdemux", "hlsdemux2", "dashdemux", "dashdemux2", "mssdemux", "mssdemux2",
    ]

    static func isAdaptiveDemuxer(_ element: Element) -> Bool {
        element.factoryName.map(adaptiveDemuxers.contains) ?? false
    }

    /// Sets an adaptive demuxer's caps. `connection-speed` is the one every
    /// adaptive demuxer has: given one, it takes it for the bandwidth and
    /// chooses the best variant under it at each segment (playbin passes its
    /// own only to demuxers made after it was set). hlsdemux2 and
    /// dashdemux2 also cap what they measure (`max-bitrate`), and GStreamer
    /// 1.24's the height (`max-video-height`); 1.22's hlsdemux has neither,
    /// so there the height cap goes into `connection-speed`.
    func apply(to demuxer: Element) {
        let limits = limits
        let capsHeight = demuxer.hasProperty("max-video-height")
        try? demuxer.setProperty("connection-speed", UInt32(clamping: capsHeight ? bitrateOnlySpeed : connectionSpeed))
        if demuxer.hasProperty("max-bitrate") {
            try? demuxer.setProperty("max-bitrate", UInt32(clamping: limits.maximumBitrate ?? 0))
        }
        if capsHeight {
            try? demuxer.setProperty("max-video-height", UInt32(clamping: limits.maximumHeight ?? 0))
        }
    }
}
