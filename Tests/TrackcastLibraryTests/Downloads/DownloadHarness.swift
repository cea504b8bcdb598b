import Foundation
import TestSupport
@testable import TrackcastLibrary

/// A library with one show whose episodes' media live on a loopback server,
/// and a downloader into the library's downloads folder.
struct DownloadHarness {
    let directory: TemporaryDirectory
    let store: LibraryStore
    let downloader: Downloader
    let server: TestHTTPServer

    static let timeouts = HTTPTimeouts(connect: .seconds(2), total: .seconds(20), idle: .seconds(2))

    /// `episodes`: title and media path of each episode, newest first.
    init(showTitle: String = "Download Show", episodes: [(title: String, path: String, type: String?)],
         timeouts: HTTPTimeouts = Self.timeouts) async throws {
        directory = try TemporaryDirectory()
        store = try await LibraryStore(directory: directory.url)
        server = try TestHTTPServer()
        let server = self.server
        let feed = Feed(title: showTitle, episodes: episodes.enumerated().map { index, episode in
            FeedEpisode(guid: "e\(index)", title: episode.title, published: SampleFeed.date(day: 100 - index),
                        enclosures: [FeedEnclosure(url: URL(string: server.url(episode.path))!, mimeType: episode.type)])
        })
        try await store.apply(feed: feed, fetchedFrom: URL(string: "https://feeds.example.org/downloads.xml")!,
                              etag: nil, lastModified: nil)
        downloader = Downloader(store: store, client: HTTPClient(userAgent: "Trackcast-tests"),
                                directory: Downloader.defaultDirectory(inLibrary: directory.url),
                                options: DownloadOptions(timeouts: timeouts))
    }

    /// The episodes' ids in the order given to `init`.
    func episodeIDs() async throws -> [EpisodeID] {
        let show = try await store.shows()[0]
        return try await store.episodes(of: show.id, limit: 100).map(\.id)
    }

    func partialFile(_ episode: EpisodeID) -> URL {
        downloader.directory.appendingPathComponent(".episode-\(episode.rawValue).part")
    }

    /// Bytes that differ at every offset, so a wrongly spliced file shows.
    static func media(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) })
    }
}
