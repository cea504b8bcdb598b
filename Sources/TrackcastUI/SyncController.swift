import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// Sync in the app: after each refresh, on Sync Now, and once playback has
/// stayed stopped for `quietPeriod` (a pause, a seek, an episode's end:
/// batched, never a request per tick). Automatic syncs wait out the backoff
/// after failures; Sync Now does not. The password is read from the keyring
/// for each sync, so a password entered again takes effect at once.
@MainActor
final class SyncController {
    static let quietPeriod: Duration = .seconds(10)

    private let library: LibraryModel
    private let keyring: any SecretStore
    /// A toast for the window.
    var onMessage: ((String) -> Void)?
    /// The server refused the password (or the keyring lost it): ask for it again.
    var onPasswordRefused: (() -> Void)?
    /// A position another device sent moved this episode's resume position.
    var onPosition: ((AppliedRemotePosition) -> Void)?
    /// The account or the last result changed (Preferences shows them).
    var onStatusChange: (() -> Void)?
    private var soon: Task<Void, Never>?

    init(library: LibraryModel, keyring: any SecretStore) {
        self.library = library
        self.keyring = keyring
        library.observeStops { [weak self] in self?.syncSoon() }
    }

    func status() async -> SyncStatus? {
        try? await library.openedStore().syncStatus()
    }

    /// Logs in and keeps the password in the keyring; nil, or why it failed.
    func logIn(server text: String, user: String, password: String, device: String) async -> String? {
        guard let server = URL(string: text.trimmingCharacters(in: .whitespaces)), server.host != nil else {
            return String(format: tr("'%@' is not an http or https address"), text)
        }
        let device = device.isEmpty ? SyncAccount.defaultDevice() : device
        guard SyncAccount.isValidDevice(device) else {
            return String(format: tr("'%@' is not a device name (letters, digits, '-', '_', '.')"), device)
        }
        do {
            let store = try await library.openedStore()
            let account = try await SyncLogin.logIn(server: server, user: user, password: password, device: device,
                                                    store: store, client: library.client())
            do {
                try await keyring.store(password, named: SyncSecret.name, label: SyncSecret.label(account))
            } catch {
                try? await store.stopSync()
                return String(format: tr("the password could not be kept in the keyring: %@"), String(describing: error))
            }
            Log.debug("sync: logged in to \(server.absoluteString) as \(device)")
            onStatusChange?()
            await sync(automatic: false)
            return nil
        } catch let error as SyncError {
            return error.message
        } catch {
            return String(describing: error)
        }
    }

    /// Forgets the password and the sync state; the library stays.
    func logOut() async {
        soon?.cancel()
        do { try await keyring.remove(named: SyncSecret.name) } catch { Log.warning("sync: cannot forget the password: \(error)") }
        do { try await library.openedStore().stopSync() } catch { Log.warning("sync: cannot forget the sync state: \(error)") }
        Log.debug("sync: logged out")
        onStatusChange?()
    }

    /// A sync once playback has been still for `quietPeriod`; a later call restarts the wait.
    func syncSoon() {
        soon?.cancel()
        soon = Task { [weak self] in
            guard (try? await Task.sleep(for: Self.quietPeriod)) != nil else { return }
            await self?.sync(automatic: true)
        }
    }

    /// One sync; returns its one-line result. Automatic syncs do nothing
    /// without an account and wait out the backoff.
    @discardableResult
    func sync(automatic: Bool) async -> String? {
        guard let status = await status() else { return nil }
        if automatic, let next = status.nextAttempt, next > Date() { return nil }
        let result: String
        do {
            guard let password = try await keyring.secret(named: SyncSecret.name) else { throw SyncError.noPassword }
            let report = try await library.librarySynchronizer().sync(password: password)
            result = report.summary
            Log.debug("sync: " + result)
            await library.syncApplied(report)
            for removed in report.removedShows {
                // gpodder.net's subscription changes do not say which device made them.
                onMessage?(String(format: tr("Unsubscribed from “%@” on another device"),
                                  removed.show.title ?? removed.show.feedURL.absoluteString))
            }
            for position in report.positions { onPosition?(position) }
        } catch SyncError.unauthorized, SyncError.noPassword {
            result = SyncError.unauthorized.message
            Log.debug("sync failed: " + result)
            onPasswordRefused?()
        } catch {
            result = (error as? SyncError)?.message ?? String(describing: error)
            Log.debug("sync failed: " + result)
            if !automatic { onMessage?(String(format: tr("Sync failed: %@"), result)) }
        }
        onStatusChange?()
        return result
    }
}
