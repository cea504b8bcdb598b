/// Which API a sync server speaks; chosen at login by what the server answers.
public enum SyncServerKind: String, Sendable, Equatable {
    /// gpodder.net's API v2 (gpodder.net, opodsync, …): a login that sets a
    /// session cookie, devices, subscriptions per device.
    case gpodder
    /// Nextcloud's GPodder Sync app: Basic auth on every request (an app
    /// password), no devices, the same two resources under its own paths.
    case nextcloud
}
