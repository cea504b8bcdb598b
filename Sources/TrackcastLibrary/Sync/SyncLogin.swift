import Foundation

/// Logging in to a sync server: which kind it is (by what it answers), this
/// device registered, and the library's sync state started afresh (every
/// show queued to be sent). The password is the caller's to keep, in the keyring.
public enum SyncLogin {
    public static func logIn(server: URL, user: String, password: String, device: String,
                             store: LibraryStore, client: HTTPClient) async throws -> SyncAccount {
        guard let scheme = server.scheme?.lowercased(), scheme == "http" || scheme == "https", server.host != nil else {
            throw SyncError.notASyncServer
        }
        let kind = try await GPodderAPI.detectKind(server: server, user: user, password: password, client: client)
        let account = SyncAccount(server: server, user: user, device: device, kind: kind)
        try await GPodderAPI(account: account, password: password, client: client).registerDevice(caption: "Trackcast")
        try await store.startSync(account)
        return account
    }
}
