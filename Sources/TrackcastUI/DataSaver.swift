import Bindings
import TrackcastCore

/// Puts the data saver's caps in force: the preferences' caps for streams,
/// and their metered variants while GIO's network monitor says the network
/// is metered. Follows both and hands the caps to `NowPlaying`, which
/// applies them to the stream playing at once.
@MainActor
final class DataSaver {
    private let settings: AppSettings
    private let monitor = NetworkMonitor()
    private weak var nowPlaying: NowPlaying?
    /// What the debug log last said, so it speaks only of changes.
    private var reported: String?

    init(settings: AppSettings, nowPlaying: NowPlaying) {
        self.settings = settings
        self.nowPlaying = nowPlaying
        for key in ["stream-max-height", "stream-max-bitrate", "metered-stream-max-height", "metered-stream-max-bitrate"] {
            settings.onChange(key) { [weak self] in self?.update() }
        }
        monitor.onMeteredChange { [weak self] in self?.update() }
        update()
    }

    var isMetered: Bool { monitor.isMetered }

    private func update() {
        let caps = settings.streamLimits
        let metered = monitor.isMetered
        let limits = StreamLimits.inForce(normal: caps.normal, metered: caps.metered, isMetered: metered)
        let report = "data saver: \(metered ? "metered" : "not metered"), \(limits)"
        if report != reported {
            reported = report
            Log.debug(report)
        }
        nowPlaying?.streamLimits = limits
    }
}
