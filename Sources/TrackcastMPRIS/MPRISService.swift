import Bindings
import TrackcastCore
import TrackcastPlayback

/// Publishes the player on the session bus as `org.mpris.MediaPlayer2.<app ID>`
/// (`org.mpris.MediaPlayer2.org.trackcast.Trackcast`), so media keys, GNOME
/// Shell, the lock screen and `playerctl` control it. The name follows the
/// app ID because Flatpak lets an app own that name and its sub-names without
/// a permission, and so that a stable and a `.Devel` build running at once
/// each have their own.
///
/// A view and a remote: it reads the player to describe it, and hands every
/// command to the host, the app's one owner of what plays, which changes the
/// player. Without a host it only describes.
///
/// Property changes are gathered and sent as one PropertiesChanged on the next
/// main-loop turn; Position is never announced (clients read it live), and
/// every jump in position sends Seeked. Calls the specification says to
/// ignore are ignored, and GDBus turns wrong argument types into errors.
@MainActor
public final class MPRISService: DBusObjectHandler {
    /// The bus name for the app ID `appID`, with an instance suffix if given.
    public static func busName(appID: String = AppIdentity.id, instance: String? = nil) -> String {
        let name = "org.mpris.MediaPlayer2.\(appID)"
        return instance.map { "\(name).\($0)" } ?? name
    }

    /// The friendly name clients show; a development build says it is one,
    /// so it can be told apart from the stable build beside it.
    public static func identity(appID: String) -> String {
        appID.hasSuffix(".Devel") ? "\(AppIdentity.name) (Devel)" : AppIdentity.name
    }

    /// When past this point, Previous restarts the item instead of going back.
    static let restartThreshold: Duration = .seconds(3)

    private let player: PlayerController
    private let appID: String
    private weak var host: (any MPRISHost)?
    private var export: DBusObjectExport?
    private var lastSent: MPRISSnapshot?
    private var phase: PlaybackPhase = .idle
    private var pendingAnnouncement = false
    private var stateObserver: Task<Void, Never>?
    /// Follows what the player learns about the current item after it is
    /// ready (the probe's tags, a radio's new title): Metadata changes.
    private var assetObserver: (item: PlaybackItemID, task: Task<Void, Never>)?

    /// - Parameters:
    ///   - appID: whose player this is; the bus name and `DesktopEntry`
    ///     follow it. The app's own unless a test stands in for another build.
    ///   - instance: a suffix for the bus name
    ///     (`org.mpris.MediaPlayer2.org.trackcast.Trackcast.instance42`) when
    ///     more than one player of one app ID may run at once, as the
    ///     specification allows.
    public init(player: PlayerController, host: (any MPRISHost)?, appID: String = AppIdentity.id,
                instance: String? = nil) throws {
        self.player = player
        self.host = host
        self.appID = appID
        export = try DBusObjectExport(busName: Self.busName(appID: appID, instance: instance), objectPath: MPRISInterfaces.objectPath,
                                      introspectionXML: MPRISInterfaces.introspection, handler: self)
    }

    /// Takes the bus name and starts following the player.
    /// `onBus` false follows the player without taking a name on the bus:
    /// for a test that calls the handler itself and must not flood the
    /// session bus its neighbours share.
    public func start(onBus: Bool = true) {
        if onBus { export?.start() }
        let store = player.store
        stateObserver = Task { [weak self] in
            for await state in await store.updates() {
                self?.phase = state.phase
                if case .ready = state.phase, let item = state.itemID { self?.followAsset(of: item) }
                self?.propertiesMayHaveChanged()
            }
        }
    }

    private func followAsset(of item: PlaybackItemID) {
        guard assetObserver?.item != item else { return }
        assetObserver?.task.cancel()
        let updates = player.assetUpdates(of: item)
        assetObserver = (item, Task { [weak self] in
            for await _ in updates { self?.propertiesMayHaveChanged() }
        })
    }

    public func stop() {
        stateObserver?.cancel()
        stateObserver = nil
        assetObserver?.task.cancel()
        assetObserver = nil
        export?.stop()
    }

    /// Call after changing the player or the queue outside MPRIS (the UI's own
    /// rate, volume, queue edits); the change is announced once, shortly.
    public func propertiesMayHaveChanged() {
        guard !pendingAnnouncement else { return }
        pendingAnnouncement = true
        Timeout.once(after: 0) { [weak self] in self?.announceChanges() }
    }

    /// Call after every jump in position, wherever it was asked for: clients
    /// hear Seeked with where it went.
    public func didSeek(to position: Duration) {
        export?.emitSignal(interface: MPRISInterfaces.player, name: "Seeked",
                           arguments: Variant(tuple: [Variant(position.microseconds)]))
    }

    private func announceChanges() {
        pendingAnnouncement = false
        let snapshot = MPRISSnapshot(player: player, phase: phase, host: host)
        let previous = lastSent?.properties ?? [:]
        let changed = snapshot.properties.filter { previous[$0.key] != $0.value }
        lastSent = snapshot
        guard !changed.isEmpty else { return }
        export?.emitPropertiesChanged(interface: MPRISInterfaces.player, changed: changed)
    }

    // MARK: DBusObjectHandler

    public func handleCall(interface: String, method: String, parameters: Variant) -> DBusReply {
        Log.debug("mpris: \(method)")
        let arguments = parameters.children
        switch (interface, method) {
        case (MPRISInterfaces.root, "Raise"):
            host?.raise()
        case (MPRISInterfaces.root, "Quit"):
            host?.quit()
        case (MPRISInterfaces.player, "Play"):
            host?.play()
        case (MPRISInterfaces.player, "Pause"):
            host?.pause()
        case (MPRISInterfaces.player, "PlayPause"):
            host?.playPause()
        case (MPRISInterfaces.player, "Stop"):
            host?.stop()
        case (MPRISInterfaces.player, "Next"):
            if host?.canGoNext == true { host?.next() }
        case (MPRISInterfaces.player, "Previous"):
            previous()
        case (MPRISInterfaces.player, "Seek"):
            seek(by: Duration(microseconds: arguments[0].int64!))
        case (MPRISInterfaces.player, "SetPosition"):
            setPosition(trackID: arguments[0].string!, to: Duration(microseconds: arguments[1].int64!))
        case (MPRISInterfaces.player, "OpenUri"):
            // Any process on the bus may call this: only what
            // SupportedUriSchemes names reaches the player.
            let uri = arguments[0].string!
            guard PlayableURI.isAllowed(uri) else {
                return .error(name: "org.freedesktop.DBus.Error.InvalidArgs",
                              message: "Trackcast opens \(PlayableURI.schemes.joined(separator: ", ")) URIs only, not \(PlayableURI.scheme(of: uri).map { "\($0):" } ?? "this one")")
            }
            host?.open(uri: uri)
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "No method \(interface).\(method)")
        }
        // Nothing announced here: what a call changes arrives as the
        // player's new state, or through the host, and is announced then; an
        // announcement now would only delay that state on the main thread.
        return .value(nil)
    }

    public func property(interface: String, name: String) -> Variant? {
        switch (interface, name) {
        case (MPRISInterfaces.root, "CanQuit"): Variant(true)
        case (MPRISInterfaces.root, "Fullscreen"): Variant(false)
        case (MPRISInterfaces.root, "CanSetFullscreen"): Variant(false)
        case (MPRISInterfaces.root, "CanRaise"): Variant(host?.canRaise ?? false)
        case (MPRISInterfaces.root, "HasTrackList"): Variant(false)
        case (MPRISInterfaces.root, "Identity"): Variant(Self.identity(appID: appID))
        case (MPRISInterfaces.root, "DesktopEntry"): Variant(appID)
        case (MPRISInterfaces.root, "SupportedUriSchemes"): Variant(strings: PlayableURI.schemes)
        case (MPRISInterfaces.root, "SupportedMimeTypes"): Variant(strings: Self.supportedMimeTypes)
        case (MPRISInterfaces.player, "Position"): Variant(player.position?.microseconds ?? 0)
        case (MPRISInterfaces.player, "MinimumRate"): Variant(PlaybackRate.range.lowerBound)
        case (MPRISInterfaces.player, "MaximumRate"): Variant(PlaybackRate.range.upperBound)
        case (MPRISInterfaces.player, "CanControl"): Variant(true)
        case (MPRISInterfaces.player, let name):
            MPRISSnapshot(player: player, phase: phase, host: host).properties[name]
        default: nil
        }
    }

    public func setProperty(interface: String, name: String, value: Variant) -> Bool {
        switch (interface, name) {
        case (MPRISInterfaces.player, "Rate"):
            guard let rate = value.double else { return false }
            // The specification: a rate of 0 means pause; other rates outside
            // the range are ignored.
            if rate == 0 {
                host?.pause()
            } else if PlaybackRate.range.contains(rate) {
                host?.setRate(rate)
            }
        case (MPRISInterfaces.player, "Volume"):
            guard let volume = value.double, !volume.isNaN else { return false }
            host?.setVolume(min(max(volume, 0), 1))
        case (MPRISInterfaces.root, "Fullscreen"):
            // CanSetFullscreen is false; the specification says to ignore the write.
            break
        default:
            return false
        }
        propertiesMayHaveChanged()
        return true
    }

    // MARK: Seeking

    private func previous() {
        guard player.currentItem != nil else { return }
        if (player.position ?? .zero) > Self.restartThreshold || host?.hasPrevious != true {
            jump(to: .zero)
        } else {
            host?.previous()
        }
    }

    private func seek(by offset: Duration) {
        guard player.currentItem != nil, let position = player.position else { return }
        let target = position + offset
        if let duration = player.duration, target > duration {
            // As the specification says: past the end acts as Next.
            if host?.canGoNext == true { host?.next() }
            return
        }
        jump(to: max(target, .zero))
    }

    private func setPosition(trackID: String, to position: Duration) {
        let current = MPRISSnapshot(player: player, phase: phase, host: host).trackID
        guard trackID == current, position >= .zero, let duration = player.duration, position <= duration else { return }
        jump(to: position)
    }

    /// The host seeks and, as for any jump, calls `didSeek(to:)`.
    private func jump(to position: Duration) {
        host?.seek(to: position)
    }

    static let supportedMimeTypes = [
        "audio/mpeg", "audio/mp4", "audio/x-m4a", "audio/ogg", "audio/opus", "audio/flac", "audio/x-wav",
        "audio/aac", "video/mp4", "video/webm", "video/x-matroska", "video/ogg", "application/vnd.apple.mpegurl",
    ]
}
