import Foundation
import TrackcastCore
import TrackcastPlayback
@testable import TrackcastUI

extension NowPlaying {
    /// An owner of what plays in the test's own process: a library of its
    /// own in `folder`, the real player into a synchronised fakesink, and
    /// MPRIS off the bus (a test calls its handler directly, and the other
    /// suites' playerctl must not see a second player).
    @MainActor
    static func inProcess(libraryIn folder: URL) async throws -> NowPlaying {
        let library = LibraryModel(directory: folder.appendingPathComponent("library"))
        _ = try await library.open(after: { try LibraryLocation.prepare(folder.appendingPathComponent("library")) })
        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink sync=true"
        configuration.decodesVideo = false
        return NowPlaying(library: library, settings: AppSettings(), playerConfiguration: configuration, publishesMPRIS: false)
    }
}
