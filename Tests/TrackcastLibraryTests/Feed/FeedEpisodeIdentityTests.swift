import Foundation
import Testing
import TrackcastLibrary

@Suite("episode identity")
struct FeedEpisodeIdentityTests {
    @Test("guid first, then enclosure URL, then title and date")
    func preference() {
        let enclosure = FeedEnclosure(url: URL("https://example.com/1.mp3"))
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        #expect(FeedEpisode(guid: "g", title: "T", published: date, enclosures: [enclosure]).identity == .guid("g"))
        #expect(FeedEpisode(title: "T", published: date, enclosures: [enclosure]).identity == .enclosureURL(enclosure.url))
        #expect(FeedEpisode(title: "T", published: date).identity == .titleAndDate(title: "T", published: date))
        #expect(FeedEpisode(guid: "", title: "T").identity == .titleAndDate(title: "T", published: nil))
    }

    @Test("keys keep the kinds apart")
    func keys() {
        #expect(FeedEpisodeIdentity.guid("https://example.com/1.mp3").key == "guid:https://example.com/1.mp3")
        #expect(FeedEpisodeIdentity.enclosureURL(URL("https://example.com/1.mp3")).key == "url:https://example.com/1.mp3")
        #expect(FeedEpisodeIdentity.titleAndDate(title: "T: x", published: Date(timeIntervalSince1970: 1_600_000_000.7)).key
                == "title:1600000000:T: x")
        #expect(FeedEpisodeIdentity.titleAndDate(title: "T", published: nil).key == "title:-:T")
    }

    @Test("a re-run under a new guid is a different episode; an edited episode under its guid is the same")
    func reruns() {
        let original = FeedEpisode(guid: "a", title: "Best Of")
        let rerun = FeedEpisode(guid: "b", title: "Best Of")
        var edited = original
        edited.title = "Best Of (remastered)"
        edited.enclosures = [FeedEnclosure(url: URL("https://example.com/new.mp3"))]
        #expect(original.identity != rerun.identity)
        #expect(original.identity == edited.identity)
    }
}
