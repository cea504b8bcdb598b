import Foundation
import Testing
import TrackcastLibrary

/// The sample show installed with the app must be a feed Trackcast reads
/// whole, wherever it is installed: its links are relative to the feed.
@Suite("The bundled sample show")
struct SampleShowTests {
    private let feedURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/sample/sample-show.xml")

    @Test("it parses, and every file it points to exists")
    func parses() throws {
        let feed = try FeedParser().parse(try Data(contentsOf: feedURL), url: feedURL)
        #expect(feed.title == "Trackcast Sample Show")
        #expect(feed.imageURL.map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(feed.episodes.map(\.title) == ["Video and Picture-in-Picture", "Tips", "Welcome to Trackcast"])
        #expect(feed.episodes.map { $0.enclosures.first?.mimeType } == ["video/webm", "audio/ogg", "audio/ogg"],
                "one episode is a video, so video and picture-in-picture can be tried without a network")
        #expect(feed.episodes.map(\.chapters.count) == [3, 2, 2])
        for episode in feed.episodes {
            let enclosure = try #require(episode.enclosures.first)
            #expect(enclosure.url.isFileURL)
            let size = try FileManager.default.attributesOfItem(atPath: enclosure.url.path)[.size] as? Int64
            #expect(size == enclosure.length, "the enclosure length in the feed matches the file")
        }
    }
}
