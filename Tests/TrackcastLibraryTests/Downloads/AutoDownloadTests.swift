import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// Which episodes a refresh makes due for automatic download: real feeds on
/// loopback, refreshed into a real library.
@Suite("Automatic downloads: what a refresh makes due")
struct AutoDownloadTests {
    /// Serves `writer`'s feed at `/SLUG.xml` and returns its address.
    private static func serve(_ writer: PodcastFeedWriter, on server: TestHTTPServer) -> String {
        server.route("/\(writer.slug).xml", .document(writer.data(), contentType: "application/rss+xml"))
        return server.url("/\(writer.slug).xml")
    }

    private static func setAutoDownload(_ show: Show, in store: LibraryStore) async throws {
        var settings = try #require(try await store.settings(for: show.id))
        settings.autoDownload = true
        try await store.setSettings(settings, for: show.id)
    }

    @Test("only the episode a refresh added to a show set to download new episodes, and only once")
    func newEpisodesOfAutoDownloadShowsOnly() async throws {
        let server = try TestHTTPServer()
        let harness = try await RefreshHarness()
        let automatic = try await harness.subscribe(Self.serve(PodcastFeedWriter(title: "Automatic", episodes: 3), on: server))
        let manual = try await harness.subscribe(Self.serve(PodcastFeedWriter(title: "Manual", episodes: 3), on: server))
        try await Self.setAutoDownload(automatic, in: harness.store)

        // Each feed gains episode 4.
        _ = Self.serve(PodcastFeedWriter(title: "Automatic", episodes: 4), on: server)
        _ = Self.serve(PodcastFeedWriter(title: "Manual", episodes: 4), on: server)
        let reports = try await harness.refreshAll()
        #expect(reports.map(\.arrivals.count) == [1, 1], "\(reports.map(\.outcome))")
        let due = try await harness.store.dueForAutoDownload(reports.flatMap(\.arrivals))
        let newest = try await harness.store.episodes(of: automatic.id, limit: 1).map(\.id)
        #expect(due == newest, "of \(reports.flatMap(\.arrivals)); the manual show is \(manual.id)")
        #expect(try await harness.store.episodeSummary(due[0])?.title == "Episode 4: Topic 4")

        // Downloading, downloaded or failed: not due again.
        for state in DownloadState.allCases {
            try await harness.store.setDownload(DownloadRecord(state: state), for: due[0])
            #expect(try await harness.store.dueForAutoDownload(due).isEmpty, "\(state)")
        }
        // Deleted by the user: the next refresh does not bring it again.
        try await harness.store.removeDownload(for: due[0])
        let again = try await harness.refreshAll()
        #expect(again.flatMap(\.arrivals).isEmpty, "\(again.map(\.outcome))")
    }

    @Test("a show's back catalogue is never due: at subscribing, and at the first refresh of an imported show")
    func backCatalogueIsNotDue() async throws {
        let server = try TestHTTPServer()
        let harness = try await RefreshHarness()
        let subscribed = try await harness.refresher.subscribe(
            to: URL(string: Self.serve(PodcastFeedWriter(title: "Subscribed", episodes: 3), on: server))!)
        #expect(subscribed.applied?.inserted == 3)
        #expect(subscribed.applied?.arrivals == [])

        let imported = Self.serve(PodcastFeedWriter(title: "Imported", episodes: 3), on: server)
        let opml = """
            <?xml version="1.0"?><opml version="2.0"><body><outline type="rss" text="Imported" xmlUrl="\(imported)"/></body></opml>
            """
        let added = try await harness.store.importOPML(Data(opml.utf8)).added
        let show = try #require(try await harness.store.show(feedURL: URL(string: imported)!))
        #expect(added == [show.id])
        try await Self.setAutoDownload(show, in: harness.store)
        let reports = await harness.refresher.refresh([show])
        #expect(reports.map(\.outcome).map { if case .updated(let result) = $0 { result.inserted } else { -1 } } == [3])
        #expect(reports.flatMap(\.arrivals).isEmpty)
    }
}
