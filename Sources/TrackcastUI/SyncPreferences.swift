import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// Preferences → Sync: server, user, password (to the keyring, never to
/// GSettings or the library), device; Log In (or Enter in the password),
/// Sync Now, Log Out; the last sync's time and result in the group's description.
@MainActor
final class SyncPreferences {
    let page = PreferencesPage(title: tr("Sync"), iconName: "emblem-synchronizing-symbolic")
    private let group = PreferencesGroup(title: tr("Sync"))
    var onMessage: ((String) -> Void)?
    private let sync: SyncController
    private let server = EntryRow(title: tr("Server"))
    private let user = EntryRow(title: tr("User"))
    private let password = EntryRow(title: tr("Password"), secret: true)
    private let device = EntryRow(title: tr("Device"))
    private let logInButton = Button(label: tr("Log In"))
    private let syncNowButton = Button(label: tr("Sync Now"))
    private let logOutButton = Button(label: tr("Log Out"))

    init(sync: SyncController) {
        self.sync = sync
        device.text = SyncAccount.defaultDevice()
        page.add(group)
        for row in [server, user, password, device] { group.add(row) }
        password.onActivated { [weak self] in self?.logIn() }
        group.add(ActionRow(title: tr("Log In"), subtitle: tr("gpodder.net, Nextcloud GPodder Sync and compatible servers"),
                            control: logInButton))
        group.add(ActionRow(title: tr("Sync Now"), control: syncNowButton))
        group.add(ActionRow(title: tr("Log Out"), subtitle: tr("Forgets the password and the sync state; the library stays"),
                            control: logOutButton))
        logInButton.onClicked { [weak self] in self?.logIn() }
        syncNowButton.onClicked { [weak self] in
            guard let self else { return }
            Task { await self.sync.sync(automatic: false) }
        }
        logOutButton.onClicked { [weak self] in
            guard let self else { return }
            Task { await self.sync.logOut() }
        }
        sync.onStatusChange = { [weak self] in self?.showStatus() }
        showStatus()
    }

    func close() { sync.onStatusChange = nil }

    /// Shown to enter the password again: the other fields are filled in.
    func focusPassword() { password.grabFocus() }

    private func logIn() {
        let (server, user, password, device) = (server.text, user.text, password.text, device.text)
        Task {
            Log.debug("sync: logging in from Preferences")
            if let failure = await sync.logIn(server: server, user: user, password: password, device: device) {
                onMessage?(String(format: tr("Sync login failed: %@"), failure))
            } else {
                self.password.text = ""
            }
        }
    }

    private func showStatus() {
        Task {
            guard let status = await sync.status() else {
                group.setDescription(tr("Subscriptions and positions follow you between Trackcast, AntennaPod, Kasts and gPodder"))
                return
            }
            server.text = status.account.server.absoluteString
            user.text = status.account.user
            device.text = status.account.device
            let when = status.lastSync.map { DateFormatter.localizedString(from: $0, dateStyle: .short, timeStyle: .short) }
            group.setDescription(when.map { String(format: tr("Last sync %@: %@"), $0, status.lastResult ?? "") }
                                 ?? tr("Logged in; not synced yet"))
            Log.debug("sync status: \(status.lastResult ?? "none")")
        }
    }
}
