import Bindings
import Foundation
import TrackcastCore

/// The Podcast Index key and secret, kept in the keyring (`Keyring`), not in
/// GSettings, which any program of the session can read. Earlier versions
/// kept them in GSettings: `load()` moves them into the keyring once and
/// empties the GSettings keys, or, with no keyring to take them, leaves them
/// there and says so. Discover reads `current`; Preferences reads `typed`
/// and sets it with `set(key:secret:)`.
@MainActor
final class PodcastIndexCredentials {
    private static let keyName = "podcast-index-api-key"
    private static let secretName = "podcast-index-api-secret"
    private static let inKeyringKey = "podcast-index-in-keyring"

    private let settings: AppSettings
    private let keyring = Keyring()
    /// What was typed or loaded, each possibly empty.
    private(set) var typed = (key: "", secret: "")
    /// The writes to the keyring under way, until `unwritten` is empty; shutdown waits for it.
    private(set) var pendingWrite: Task<Void, Never>?
    private var unwritten: (key: String, secret: String)?
    /// A failed write is told once: typing fails at every key otherwise.
    private var toldWriteFailure = false
    /// Called when `current` or `typed` changes.
    var onChange: (@MainActor () -> Void)?
    /// Called with a message for the user when the keyring cannot be used.
    var onMessage: (@MainActor (String) -> Void)?

    init(settings: AppSettings) {
        self.settings = settings
    }

    /// The key and secret Discover signs its requests with; nil unless both are set.
    var current: (key: String, secret: String)? {
        typed.key.isEmpty || typed.secret.isEmpty ? nil : typed
    }

    /// Reads the key and secret: from GSettings, moving them into the keyring,
    /// when an earlier version left them there; else from the keyring when it
    /// holds them (the keyring is not asked otherwise, so it is never woken
    /// or unlocked for a user who has none).
    func load() async {
        let legacy = (key: Self.trimmed(settings.string(forKey: Self.keyName)), secret: Self.trimmed(settings.string(forKey: Self.secretName)))
        if !legacy.key.isEmpty || !legacy.secret.isEmpty {
            update(legacy)
            do {
                try await write(legacy)
                settings.set(Variant(""), forKey: Self.keyName)
                settings.set(Variant(""), forKey: Self.secretName)
                Log.debug("podcast index: key and secret moved from the settings to the keyring")
            } catch {
                Log.warning("podcast index: the keyring is missing or locked (\(error)); the key and secret stay in the settings, readable by every program of the session")
                tell(tr("Keyring unavailable: the Podcast Index key stays in the settings"))
            }
            return
        }
        guard settings.bool(forKey: Self.inKeyringKey) else { return }
        do {
            let key = try await keyring.secret(named: Self.keyName)
            let secret = try await keyring.secret(named: Self.secretName)
            guard key != nil || secret != nil else {
                // libsecret finds nothing in a keyring that stays locked.
                Log.warning("podcast index: the keyring is locked or no longer holds the key and secret")
                tell(tr("Keyring locked or empty: Discover searches without Podcast Index"))
                return
            }
            Log.debug("podcast index: key and secret read from the keyring")
            update((key ?? "", secret ?? ""))
        } catch {
            Log.warning("podcast index: cannot read the keyring: \(error)")
            tell(tr("Keyring unreadable: Discover searches without Podcast Index"))
        }
    }

    /// What Preferences typed: used at once, written to the keyring in the
    /// background (the newest value last, however fast it was typed).
    func set(key: String, secret: String) {
        let entered = (key: Self.trimmed(key), secret: Self.trimmed(secret))
        guard entered != typed else { return }
        update(entered)
        unwritten = entered
        guard pendingWrite == nil else { return }
        pendingWrite = Task {
            while let next = unwritten {
                unwritten = nil
                do {
                    try await write(next)
                } catch {
                    Log.warning("podcast index: cannot write the keyring: \(error)")
                    if !toldWriteFailure {
                        toldWriteFailure = true
                        tell(tr("Keyring unavailable: the key is kept until you quit"))
                    }
                }
            }
            pendingWrite = nil
        }
    }

    /// Stores what is set and removes what is empty; the GSettings flag says
    /// whether the keyring holds anything of it.
    private func write(_ credentials: (key: String, secret: String)) async throws {
        for (name, value, label) in [(Self.keyName, credentials.key, tr("Trackcast: Podcast Index API key")),
                                     (Self.secretName, credentials.secret, tr("Trackcast: Podcast Index API secret"))] {
            if value.isEmpty {
                try await keyring.remove(named: name)
            } else {
                try await keyring.store(value, named: name, label: label)
            }
        }
        settings.set(Variant(!credentials.key.isEmpty || !credentials.secret.isEmpty), forKey: Self.inKeyringKey)
    }

    private func update(_ credentials: (key: String, secret: String)) {
        typed = credentials
        onChange?()
    }

    private func tell(_ message: String) { onMessage?(message) }

    private static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces) }
}
