import Foundation
import Bindings
import TrackcastCore
import TrackcastLibrary
import TrackcastPlayback

/// The preferences the app reads from GSettings. Without an installed schema
/// (an uninstalled build outside meson-helpers) the schema's defaults apply
/// and nothing is saved.
@MainActor
final class AppSettings {
    let settings: Settings?

    init() {
        do {
            settings = try Settings(schemaID: AppIdentity.id)
        } catch {
            Log.debug("preferences will not be saved: \(error)")
            settings = nil
        }
    }

    var skipForward: Duration { .seconds(Int((try? settings?.int(forKey: "skip-forward-seconds")) ?? 30)) }
    var skipBackward: Duration { .seconds(Int((try? settings?.int(forKey: "skip-backward-seconds")) ?? 15)) }
    var playbackSpeed: Double { (try? settings?.double(forKey: "playback-speed")) ?? 1 }
    /// A pause of five minutes or more rewinds by the preference's seconds (0: never).
    var resumePolicy: ResumePolicy {
        ResumePolicy(longPause: 300, rewind: Double((try? settings?.int(forKey: "rewind-after-pause-seconds")) ?? 5))
    }
    var backgroundPlayback: Bool { (try? settings?.bool(forKey: "background-playback")) ?? true }
    var pictureInPictureOnMinimize: Bool { (try? settings?.bool(forKey: "pip-on-minimize")) ?? false }
    var listeningEffects: ListeningEffects {
        ListeningEffects(skipsSilence: (try? settings?.bool(forKey: "skip-silence")) ?? false,
                         boostsVoice: (try? settings?.bool(forKey: "voice-boost")) ?? false)
    }

    /// The data saver's caps for streams, on any network and on metered ones.
    var streamLimits: (normal: StreamLimits, metered: StreamLimits) {
        (StreamLimits(height: int(forKey: "stream-max-height", fallback: 0),
                      kilobitsPerSecond: int(forKey: "stream-max-bitrate", fallback: 0)),
         StreamLimits(height: int(forKey: "metered-stream-max-height", fallback: 480),
                      kilobitsPerSecond: int(forKey: "metered-stream-max-bitrate", fallback: 1000)))
    }

    /// An integer key's value; `fallback` without an installed schema.
    func int(forKey key: String, fallback: Int) -> Int {
        (try? settings?.int(forKey: key)).map(Int.init) ?? fallback
    }

    /// A string key's value; empty without an installed schema.
    func string(forKey key: String) -> String { (try? settings?.string(forKey: key)) ?? "" }
    /// A boolean key's value; false without an installed schema.
    func bool(forKey key: String) -> Bool { (try? settings?.bool(forKey: key)) ?? false }

    func set(_ value: Variant, forKey key: String) {
        do {
            try settings?.setValue(value, forKey: key)
        } catch {
            Log.warning("cannot save \(key): \(error)")
        }
    }

    /// Stateful actions over keys that menus choose from or toggle:
    /// `app.playback-speed`, `app.skip-silence`, `app.voice-boost`, `app.pip-on-minimize`.
    func actions() -> [ObjectRef] {
        guard let settings else { return [] }
        return ["playback-speed", "skip-silence", "voice-boost", "pip-on-minimize"].compactMap { try? settings.action(forKey: $0) }
    }

    /// Calls `handler` whenever `key` changes; disconnect the returned
    /// connection when whoever listens goes away (a closed window).
    @discardableResult
    func onChange(_ key: String, _ handler: @escaping @MainActor () -> Void) -> SignalConnection? {
        try? settings?.onChange(key, handler)
    }
}
