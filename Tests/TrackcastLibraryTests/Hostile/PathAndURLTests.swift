import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// Where a feed's names and addresses may lead: only web addresses, and only
/// files inside the downloads folder, never through a planted symbolic link.
@Suite("Hostile paths and addresses")
struct PathAndURLTests {
    @Test("a web feed cannot point anything at a file: URL or another scheme")
    func webFeedStaysOnTheWeb() throws {
        let feed = try FeedParser().parse(Data("""
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
              <title>T</title><itunes:image href="file:///etc/passwd"/><link>javascript:alert(1)</link>
              <item><guid>1</guid><title>A</title><enclosure url="file:///etc/passwd" type="audio/mpeg"/>
                <podcast:chapters url="ftp://example.org/c.json" type="application/json+chapters"/>
                <podcast:transcript url="data:text/plain,hi" type="text/plain"/>
                <itunes:image href="smb://server/share/x.png"/></item>
              <item xml:base="file:///home/"><guid>2</guid><title>B</title><enclosure url="secret.mp3" type="audio/mpeg"/></item>
              <item><guid>3</guid><title>C</title><enclosure url="/media/c.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """.utf8), url: URL(string: "https://example.org/feed.xml")!)
        #expect(feed.imageURL == nil && feed.link == nil)
        let (a, b, c) = (feed.episodes[0], feed.episodes[1], feed.episodes[2])
        #expect(a.enclosures.isEmpty && a.chaptersURL == nil && a.transcripts.isEmpty && a.imageURL == nil)
        // xml:base cannot make a web feed's relative URLs local ones: it is refused, the feed's URL stays the base.
        #expect(b.enclosures.map(\.url.absoluteString) == ["https://example.org/secret.mp3"])
        #expect(c.enclosures.map(\.url.absoluteString) == ["https://example.org/media/c.mp3"])
    }

    @Test("a local feed the user chose may name its own neighbouring files")
    func localFeedMayNameFiles() throws {
        let feed = try FeedParser().parse(Data("""
            <rss version="2.0"><channel><title>T</title>
              <item><guid>1</guid><enclosure url="episode.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8), url: URL(fileURLWithPath: "/music/show/feed.xml"))
        #expect(feed.episodes[0].enclosures.map(\.url.path) == ["/music/show/episode.mp3"])
    }

    @Test("a chapters file cannot link a chapter or its image to a file or a script")
    func chapterLinks() throws {
        let chapters = try PodcastChaptersFile.parse(Data("""
            {"version": "1.2.0", "chapters": [
              {"startTime": 0, "title": "A", "url": "file:///etc/passwd", "img": "javascript:alert(1)"},
              {"startTime": 10, "title": "B", "url": "https://example.org/b", "img": "/b.jpg"}]}
            """.utf8), relativeTo: URL(string: "https://example.org/ep/chapters.json")!)
        #expect(chapters.map(\.url) == [nil, URL(string: "https://example.org/b")])
        #expect(chapters.map(\.image) == [nil, .remote(URL(string: "https://example.org/b.jpg")!)])
    }

    @Test("names cannot leave the folder or take a reserved name", arguments: [
        ("..", "Episode 9"),
        ("../../../etc/passwd", "etc-passwd"),
        ("/absolute/path", "absolute-path"),
        ("C:\\Windows\\system32", "C--Windows-system32"),
        ("CON", "_CON"),
        ("nul.mp3", "_nul.mp3"),
        ("Com1", "_Com1"),
        ("LPT9.txt", "_LPT9.txt"),
        ("Console", "Console"),
        ("bell\u{7}null\u{0}escape\u{1B}[31m", "bell null escape [31m"),
        ("right\u{202E}to\u{200B}left", "righttoleft"),
        // The mark for a device name still fits the longest name (found by the download-names fuzzer).
        ("CON." + String(repeating: "a", count: 300), "_CON." + String(repeating: "a", count: 175)),
    ])
    func names(_ title: String, _ expected: String) {
        #expect(DownloadFileName.sanitised(title, fallback: "Episode 9") == expected)
    }

    @Test("a planted symbolic link where the partial file goes is not written through")
    func symlinkedPartialFile() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "One", path: "/1.mp3", type: "audio/mpeg")])
        harness.server.route("/1.mp3", .serve(DownloadHarness.media(10_000), contentType: "audio/mpeg"))
        let episode = try await harness.episodeIDs()[0]
        let victim = harness.directory.url.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createDirectory(at: harness.downloader.directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: harness.partialFile(episode), withDestinationURL: victim)

        await #expect(throws: DownloadError.self) { try await harness.downloader.download(episode) }

        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
        #expect(try await harness.store.download(for: episode)?.state != .complete)
    }

    @Test("a planted symbolic link in place of the show's folder is not followed")
    func symlinkedShowFolder() async throws {
        let harness = try await DownloadHarness(showTitle: "Show", episodes: [(title: "One", path: "/1.mp3", type: "audio/mpeg")])
        harness.server.route("/1.mp3", .serve(DownloadHarness.media(10_000), contentType: "audio/mpeg"))
        let episode = try await harness.episodeIDs()[0]
        let elsewhere = harness.directory.url.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: harness.downloader.directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: harness.downloader.directory.appendingPathComponent("Show"),
                                                   withDestinationURL: elsewhere)

        await #expect(throws: DownloadError.self) { try await harness.downloader.download(episode) }

        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(try await harness.store.download(for: episode)?.state != .complete)
    }

    @Test("an enclosure already stored with a file: URL is not downloaded")
    func storedFileEnclosure() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "One", path: "/1.mp3", type: "audio/mpeg")])
        let feed = Feed(title: "Local", episodes: [
            FeedEpisode(guid: "f", title: "F", enclosures: [FeedEnclosure(url: URL(fileURLWithPath: "/etc/passwd"), mimeType: "audio/mpeg")]),
        ])
        let applied = try await harness.store.apply(feed: feed, fetchedFrom: URL(string: "https://evil.example/feed.xml")!,
                                                    etag: nil, lastModified: nil)
        let show = try #require(try await harness.store.shows().first { $0.feedURL.host == "evil.example" })
        let episode = try #require(try await harness.store.episodes(of: show.id, limit: 1).first)
        _ = applied

        await #expect(throws: DownloadError.self) { try await harness.downloader.download(episode.id) }
        #expect(try await harness.store.download(for: episode.id)?.state != .complete)
    }
}
