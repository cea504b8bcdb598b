import Bindings
import Synchronization
import TrackcastCore

/// The data saver's caps as the pipeline's threads read them: playbin
/// makes its adaptive demuxer on a streaming thread, while the caps change
/// on the main actor.
final class StreamLimitSetting: Sendable {
    private let state: Mutex<StreamLimits>
    /// The configuration's assumed bandwidth (kbit/s), used while no bitrate cap is set.
    private let configuredSpeed: Int?

    init(_ limits: StreamLimits, connectionSpeed: Int?) {
        state = Mutex(limits)
        configuredSpeed = connectionSpeed
    }

    var limits: StreamLimits {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// playbin's `connection-speed` in kbit/s: with a bitrate cap the
    /// demuxer takes the cap for the bandwidth, so it starts on the best
    /// variant under it instead of the lowest; 0 lets it measure.
    var connectionSpeed: UInt64 {
        if let bitrate = limits.maximumBitrate { return UInt64(bitrate / 1000) }
        return UInt64(max(0, configuredSpeed ?? 0))
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
    /// 1.24's the height (`max-video-height`); 1.22's hlsdemux has neither.
    func apply(to demuxer: Element) {
        let limits = limits
        try? demuxer.setProperty("connection-speed", UInt32(clamping: connectionSpeed))
        if demuxer.hasProperty("max-bitrate") {
            try? demuxer.setProperty("max-bitrate", UInt32(clamping: limits.maximumBitrate ?? 0))
        }
        if demuxer.hasProperty("max-video-height") {
            try? demuxer.setProperty("max-video-height", UInt32(clamping: limits.maximumHeight ?? 0))
        }
    }
}
