import CPlatform
import Foundation

/// The show that ships with Trackcast, so there is something to try before
/// subscribing to anything: `<pkgdatadir>/sample/sample-show.xml`, or for an
/// uninstalled build wherever `TRACKCAST_PKGDATADIR` points (the source
/// tree's data folder; meson-helpers/uninstalled-data sets it), as the
/// locale folder is found.
enum SampleShow {
    static func feedURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let directory = environment["TRACKCAST_PKGDATADIR"].flatMap { $0.isEmpty ? nil : $0 } ?? TRACKCAST_PKGDATADIR
        guard !directory.isEmpty else { return nil }
        return URL(fileURLWithPath: directory, isDirectory: true)
            .appendingPathComponent("sample", isDirectory: true)
            .appendingPathComponent("sample-show.xml")
    }
}
