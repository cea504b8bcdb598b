import Bindings
import CPlatform
import Foundation
import TrackcastCore
import TrackcastLibrary

/// The About window: who made Trackcast and who translated it, where to
/// report an issue, and what the newest release brought, read from the
/// metainfo that software centres show too.
@MainActor
enum AboutTrackcast {
    static func present(transientFor parent: ApplicationWindow?, libraryDirectory: URL) {
        let about = AboutWindow(transientFor: parent, applicationName: AppIdentity.name,
                                applicationIcon: AppIdentity.id, version: AppIdentity.version,
                                developerName: tr("The Trackcast developers"), website: AppIdentity.website,
                                license: .gpl3OrLater)
        about.setIssueURL(AppIdentity.issueTracker)
        // Translators: your names, one per line, e.g. "Ada Lovelace <ada@example.org>"; shown in About.
        let credits = tr("translator-credits")
        if credits != "translator-credits" { about.setTranslatorCredits(credits) }
        about.setDebugInfo("Library: \(libraryDirectory.path)")
        about.present()
        let languages = Languages.preferred
        Task {
            let notes = await Task.detached { releaseNotes(languages: languages) }.value
            if let notes { about.setReleaseNotes(notes.markup, version: notes.version) }
        }
    }

    /// The installed metainfo (`<datadir>/metainfo`, beside `<pkgdatadir>`),
    /// or for an uninstalled build the source's, where `TRACKCAST_PKGDATADIR`
    /// points at the data folder.
    nonisolated static func releaseNotes(languages: [String],
                                         environment: [String: String] = ProcessInfo.processInfo.environment) -> ReleaseNotes? {
        let directory = environment["TRACKCAST_PKGDATADIR"].flatMap { $0.isEmpty ? nil : $0 } ?? TRACKCAST_PKGDATADIR
        guard !directory.isEmpty else { return nil }
        let data = URL(fileURLWithPath: directory, isDirectory: true)
        let candidates = [
            data.deletingLastPathComponent().appendingPathComponent("metainfo/\(AppIdentity.id).metainfo.xml"),
            data.appendingPathComponent("org.trackcast.Trackcast.metainfo.xml.in"),
        ]
        for file in candidates {
            guard let contents = try? Data(contentsOf: file) else { continue }
            let notes = ReleaseNotes(metainfo: contents, languages: languages)
            if notes == nil { Log.warning("no release notes in \(file.path)") }
            Log.debug("about: release notes \(notes?.version ?? "none") from \(file.lastPathComponent)")
            return notes
        }
        Log.debug("about: no metainfo for release notes")
        return nil
    }
}
