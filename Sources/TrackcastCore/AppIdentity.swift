/// Who the application is, as the desktop, D-Bus and the CLI see it.
public enum AppIdentity {
    public static let id = "org.trackcast.Trackcast"
    public static let name = "Trackcast"
    public static let executable = "trackcast"
    public static let version = "0.1.0"
    public static let website = "https://trackcast.org"
}
