import CPlatform

/// Who the application is, as the desktop, D-Bus and the CLI see it. The
/// values come from the build configuration, so a development build
/// (`-Dprofile=development`) installs beside a stable one.
public enum AppIdentity {
    public static let id = TRACKCAST_APP_ID
    public static let name = "Trackcast"
    public static let executable = "trackcast"
    public static let version = TRACKCAST_VERSION
    public static let website = "https://trackcast.org"
    /// As the metainfo's bugtracker URL says.
    public static let issueTracker = "https://trackcast.org/issues"
    public static let isDevelopment = TRACKCAST_PROFILE == "development"
    /// Where MPRIS, GApplication and GSettings paths live, e.g. /org/trackcast/Trackcast.
    public static var objectPath: String { "/" + id.replacingOccurrences(of: ".", with: "/") }
}
