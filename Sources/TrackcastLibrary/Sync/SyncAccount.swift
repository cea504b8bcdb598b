import Foundation

/// Who syncs with which server, as this device. The password is not here:
/// it lives in the keyring (`SecretStore`), never in the library.
public struct SyncAccount: Sendable, Equatable {
    /// The server's base address, e.g. https://gpodder.net or a Nextcloud's.
    public var server: URL
    public var user: String
    /// This device's id on the server (gpodder.net's device; Nextcloud records it in each action).
    public var device: String
    public var kind: SyncServerKind

    public init(server: URL, user: String, device: String, kind: SyncServerKind) {
        self.server = server
        self.user = user
        self.device = device
        self.kind = kind
    }

    /// The device name used when none is given: letters, digits, - and _ only,
    /// as gpodder.net accepts in a device id.
    public static func defaultDevice(hostName: String = ProcessInfo.processInfo.hostName) -> String {
        let allowed = hostName.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        let name = String(String.UnicodeScalarView(allowed.prefix(40)))
        return "trackcast-" + (name.isEmpty ? "desktop" : name)
    }

    /// Whether `device` is a device id gpodder.net accepts.
    public static func isValidDevice(_ device: String) -> Bool {
        !device.isEmpty && device.count <= 64 && device.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == ".")
        }
    }
}
