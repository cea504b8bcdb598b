/// Where the sync password is kept: the desktop's keyring. The library only
/// names what it needs; the keyring itself (libsecret) is in the bindings.
public protocol SecretStore: Sendable {
    func secret(named name: String) async throws -> String?
    func store(_ secret: String, named name: String, label: String) async throws
    func remove(named name: String) async throws
}

/// The name the sync password is stored under.
public enum SyncSecret {
    public static let name = "sync-password"
    public static func label(_ account: SyncAccount) -> String {
        "Trackcast sync: \(account.user) on \(account.server.host ?? account.server.absoluteString)"
    }
}
