import CGLib
import CLibSecret
import Dispatch

/// The desktop's keyring: the Secret Service (GNOME Keyring, KWallet) on the
/// session bus, or inside a Flatpak libsecret's own file, unlocked through
/// the Secret portal. Items are found by a name under Trackcast's own schema.
///
/// libsecret's synchronous calls block until the keyring answers, and an
/// unlock prompt can keep them waiting on the user, so every call runs on one
/// serial queue of its own, never on the caller's thread; the serial queue
/// also keeps a store and a later one in the order they were asked for.
public struct Keyring: Sendable {
    private static let queue = DispatchQueue(label: "org.trackcast.keyring")

    public init() {}

    /// The secret stored under `name` (a GLibError when the keyring cannot
    /// be reached); nil when there is none (or the
    /// keyring stayed locked: libsecret does not tell the two apart).
    public func secret(named name: String) async throws -> String? {
        try await Self.run {
            try GLibError.check { error -> String? in
                let attributes = Self.attributes(name)
                defer { g_hash_table_unref(attributes) }
                guard let found = secret_password_lookupv_sync(tc_secret_schema(), attributes, nil, error) else { return nil }
                defer { secret_password_free(found) }
                return String(cString: found)
            }
        }
    }

    /// Stores `secret` under `name` in the default collection (replacing
    /// what was there), shown to the user as `label` (Seahorse lists it so).
    public func store(_ secret: String, named name: String, label: String) async throws {
        try await Self.run {
            let stored = try GLibError.check { error in
                let attributes = Self.attributes(name)
                defer { g_hash_table_unref(attributes) }
                return secret_password_storev_sync(tc_secret_schema(), attributes, nil, label, secret, nil, error)
            }
            // A dismissed unlock prompt fails without a GError.
            if stored == 0 { throw GLibError(domain: "secret-error", code: 0, message: "the keyring stayed locked") }
        }
    }

    /// Removes what is stored under `name`; nothing stored is no error.
    public func remove(named name: String) async throws {
        try await Self.run {
            _ = try GLibError.check { error in
                let attributes = Self.attributes(name)
                defer { g_hash_table_unref(attributes) }
                return secret_password_clearv_sync(tc_secret_schema(), attributes, nil, error)
            }
        }
    }

    /// The schema's one attribute, as libsecret takes it: a string table that frees its copies.
    private static func attributes(_ name: String) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(table, g_strdup("name"), g_strdup(name))
        return table
    }

    /// Runs `body` on the keyring's queue; its errors are GLibErrors.
    private static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
