import Bindings
import TrackcastCore

/// Keeps the computer from suspending while something plays, and the screen
/// from blanking while a video plays; lets go on pause, stop, end or failure.
/// Through GTK's application inhibit call, which asks GNOME's session manager
/// or the desktop portal.
@MainActor
final class PlaybackInhibitor {
    private let application: Application
    private let window: () -> ApplicationWindow?
    private var held: (what: Application.Inhibition, cookie: UInt32?)?

    init(application: Application, window: @escaping () -> ApplicationWindow?) {
        self.application = application
        self.window = window
    }

    /// Brings the inhibition in line with what plays now.
    func update(phase: PlaybackPhase, isVideo: Bool) {
        let wanted: Application.Inhibition
        switch phase {
        case .playing, .buffering: wanted = isVideo ? [.suspend, .idle] : .suspend
        case .idle, .loading, .ready, .paused, .ended, .failed: wanted = []
        }
        guard wanted != held?.what ?? [] else { return }
        release()
        guard !wanted.isEmpty else { return }
        let reason = isVideo ? tr("Playing a video") : tr("Playing an episode")
        let cookie = application.inhibit(wanted, window: window(), reason: reason)
        held = (wanted, cookie)
        Log.debug("inhibited \(Self.describe(wanted)): \(cookie.map { "cookie \($0)" } ?? "the session offers no way")")
    }

    /// Lets go of any inhibition (quitting: the session should not wait on
    /// the process's bus connection closing to notice).
    func release() {
        guard let held else { return }
        self.held = nil
        if let cookie = held.cookie { application.uninhibit(cookie) }
        Log.debug("released \(Self.describe(held.what))")
    }

    private static func describe(_ what: Application.Inhibition) -> String {
        what.contains(.idle) ? "suspend and idle" : "suspend"
    }
}
