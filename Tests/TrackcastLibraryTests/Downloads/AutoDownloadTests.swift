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

    private static func setAutoDownload(_ show: Show, in store: LibraryStore, to on: Bool) async throws {
        var settings = try #require(try await store.settings(for: show.id))
        settings.autoDownload = on
        try await store.setSettings(settings, for: show.id)
    }

    @Test("only the episode a refresh added to a show set to download new episodes waits, until a download of it or the show's setting off")
    func newEpisodesOfAutoDownloadShowsOnly() async throws {
        let server = try TestHTTPServer()
        let harness = try await RefreshHarness()
        let automatic = try await harness.subscribe(Self.serve(PodcastFeedWriter(title: "Automatic", episodes: 3), on: server))
        let manual = try await harness.subscribe(Self.serve(PodcastFeedWriter(title: "Manual", episodes: 3), on: server))
        try await Self.setAutoDownload(automatic, in: harness.store, to: true)

        // Each feed gains episode 4.
        _ = Self.serve(PodcastFeedWriter(title: "Automatic", episodes: 4), on: server)
        _ = Self.serve(PodcastFeedWriter(title: "Manual", episodes: 4), on: server)
        let reports = try await harness.refreshAll()
        #expect(reports.map(\.arrivals.count) == [1, 1], "\(reports.map(\.outcome))")
        let waiting = try await harness.store.waitingAutoDownloads()
        let newest = try await harness.store.episodes(of: automatic.id, limit: 1).map(\.id)
        #expect(waiting == newest, "of \(reports.flatMap(\.arrivals)); the manual show is \(manual.id)")
        #expect(try await harness.store.episodeSummary(waiting[0])?.title == "Episode 4: Topic 4")

        // A download record, the user's or the automatic one, ends the wait;
        // deleted, it does not bring the episode back, nor does a refresh.
        try await harness.store.setDownload(DownloadRecord(state: .queued), for: waiting[0])
        #expect(try await harness.store.waitingAutoDownloads().isEmpty)
        try await harness.store.removeDownload(for: waiting[0])
        let again = try await harness.refreshAll()
        #expect(again.flatMap(\.arrivals).isEmpty, "\(again.map(\.outcome))")
        #expect(try await harness.store.waitingAutoDownloads().isEmpty)

        // Episode 5 waits until the show's setting is turned off; on again, it does not come back.
        _ = Self.serve(PodcastFeedWriter(title: "Automatic", episodes: 5), on: server)
        _ = try await harness.refreshAll()
        #expect(try await harness.store.waitingAutoDownloads().count == 1)
        try await Self.setAutoDownload(automatic, in: harness.store, to: false)
        #expect(try await harness.store.waitingAutoDownloads().isEmpty)
        try await Self.setAutoDownload(automatic, in: harness.store, to: true)
        #expect(try await harness.store.waitingAutoDownloads().isEmpty)

        // Episode 6 waits; its show unsubscribed, it is gone from the list too.
        _ = Self.serve(PodcastFeedWriter(title: "Automatic", episodes: 6), on: server)
        _ = try await harness.refreshAll()
        #expect(try await harness.store.waitingAutoDownloads().count == 1)
        try await harness.store.unsubscribe(automatic.id)
        #expect(try await harness.store.waitingAutoDownloads().isEmpty)
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
        try await Self.setAutoDownload(show, in: harness.store, to: true)
        let reports = await harness.refresher.refresh([show])
        #expect(reports.map(\.outcome).map { if case .updated(let result) = $0 { result.inserted } else { -1 } } == [3])
        #expect(reports.flatMap(\.arrivals).isEmpty)
        #expect(try await harness.store.waitingAutoDownloads().isEmpty)
    }
}
