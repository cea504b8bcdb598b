/// The URI schemes Trackcast plays: files and web addresses. GStreamer
/// knows many more (`v4l2://` opens a camera, `udp://` listens on the
/// network, `fd://0` reads a descriptor), and anyone on the session bus can
/// hand the app a URI through MPRIS `OpenUri` or `org.freedesktop.Application.Open`,
/// so every way into playback asks here first. MPRIS `SupportedUriSchemes`
/// publishes the same list.
public enum PlayableURI {
    public static let schemes = ["file", "http", "https"]

    /// The scheme of `uri` in lower case (RFC 3986: a letter, then letters,
    /// digits, `+`, `-`, `.`, up to the colon), or nil if it has none.
    public static func scheme(of uri: String) -> String? {
        guard let colon = uri.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = uri.utf8[..<colon]
        guard let first = name.first, isLetter(first),
              name.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        return String(decoding: name, as: UTF8.self).lowercased()
    }

    /// Whether `uri` may be played: its scheme is one of `schemes`.
    public static func isAllowed(_ uri: String) -> Bool {
        scheme(of: uri).map(schemes.contains) ?? false
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
