import Foundation
import TrackcastLibrary

/// The big library: 500 shows and 100,000 episodes, one of them a
/// long-running show (show 1) with 10,180 episodes, the other 499 with 180
/// each, in the state of long use (`LibraryQueryBenchmark.fill`). The
/// start-up, scrolling and memory rows all use it.
enum BigLibrary {
    static let shows = 500
    static let episodesPerShow = 180
    static let firstShowEpisodes = 10_180
    static var episodes: Int { (shows - 1) * episodesPerShow + firstShowEpisodes }
    static var label: String { "\(shows)-show, \(episodes / 1000)k-episode" }

    /// Makes the library in `folder`, which must not exist yet.
    static func make(at folder: URL) async throws -> URL {
        try await LibraryQueryBenchmark.fill(try await LibraryStore(directory: folder), shows: shows,
                                             episodesPerShow: episodesPerShow, firstShowEpisodes: firstShowEpisodes)
        return folder
    }
}
