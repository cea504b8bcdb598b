import Bindings
import Foundation
import TrackcastCore

/// Whether Trackcast may go on playing with its window closed. Outside a
/// sandbox nothing needs asking; inside Flatpak the Background portal is
/// asked, since GNOME ends sandboxed apps that run windowless without leave.
/// Asked each time the window closes while playing, until a yes: the
/// portal remembers the user's choice, so a repeated question costs nothing.
@MainActor
final class BackgroundPermission {
    private let sandboxMarker: URL
    private let portalBusName: String
    private var isAllowed = false

    /// - Parameters:
    ///   - sandboxMarker: a file whose presence means "sandboxed"; another
    ///     only for tests, which run outside any sandbox.
    ///   - portalBusName: the portal's; another only for a stand-in in tests.
    init(sandboxMarker: URL = Sandbox.flatpakMarker, portalBusName: String = BackgroundPortal.desktopBusName) {
        self.sandboxMarker = sandboxMarker
        self.portalBusName = portalBusName
    }

    var isSandboxed: Bool { Sandbox.isSandboxed(marker: sandboxMarker) }

    /// Asks the portal when sandboxed and not yet allowed; nil when nothing
    /// had to be asked, else the portal's answer.
    func request() async -> BackgroundPortal.Answer? {
        guard isSandboxed, !isAllowed else { return nil }
        let answer = await BackgroundPortal.requestBackground(
            reason: tr("Trackcast keeps playing after its window is closed"), busName: portalBusName)
        if answer == .allowed { isAllowed = true }
        Log.debug("background portal: \(answer)")
        return answer
    }

    /// What to tell the user when the answer is not a yes.
    static func refusal(_ answer: BackgroundPortal.Answer) -> String? {
        switch answer {
        case .allowed: nil
        case .denied: tr("The desktop does not allow Trackcast to play in the background, so the window stays open")
        case .failed(let reason):
            String(format: tr("Could not ask the desktop to play in the background (%@), so the window stays open"), reason)
        }
    }
}
