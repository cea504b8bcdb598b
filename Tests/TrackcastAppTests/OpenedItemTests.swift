import Foundation
import Testing
@testable import TrackcastUI

/// What the app does with a file or link it is handed, judged without running it.
@Suite("Opened files and links")
struct OpenedItemTests {
    @Test("subscription lists, feeds and media are told apart", arguments: [
        ("file:///home/me/subscriptions.opml", OpenedItem.subscriptionList),
        ("https://example.org/export.OPML", .subscriptionList),
        ("feed://example.org/podcast", .feed),
        ("podcast://example.org/rss", .feed),
        ("itms-podcast://example.org/id123", .feed),
        ("https://example.org/podcast.rss", .feed),
        ("file:///tmp/sample-show.xml", .feed),
        ("https://example.org/episode.mp3", .media),
        ("file:///home/me/Videos/talk.webm", .media),
        ("https://example.org/podcast", .feedOrMedia),
        ("http://radio.example.org/live", .feedOrMedia),
        ("v4l2:///dev/video0", .refused),
        ("udp://0.0.0.0:5004", .refused),
        ("fd://0", .refused),
        ("smb://server/share/subscriptions.opml", .refused),
        ("ftp://example.org/podcast.rss", .refused),
    ])
    func classification(uri: String, expected: OpenedItem) throws {
        #expect(OpenedItem(try #require(URL(string: uri))) == expected)
    }
}

@Suite("Times as the views write them")
struct TimeTextTests {
    @Test("clock times", arguments: [
        (Duration.zero, "0:00"), (.seconds(5), "0:05"), (.seconds(65), "1:05"),
        (.seconds(3_723), "1:02:03"), (.milliseconds(59_900), "0:59"), (.seconds(-3), "0:00"),
    ])
    func clock(duration: Duration, text: String) {
        #expect(TimeText.clock(duration) == text)
    }

    @Test("lengths and time left")
    func lengths() {
        #expect(TimeText.length(13) == "13 s")
        #expect(TimeText.length(45 * 60) == "45 min")
        #expect(TimeText.length(65 * 60) == "1 h 5 min")
        #expect(TimeText.remaining(0.2) == "1 s left")
        #expect(TimeText.remaining(12 * 60) == "12 min left")
    }

    @Test("clocks of seconds, and lengths, that no media has are written, not trapped on")
    func extremes() {
        #expect(TimeText.clock(seconds: 65) == "1:05")
        #expect(TimeText.clock(seconds: .infinity) == "0:00")
        #expect(TimeText.clock(seconds: .nan) == "0:00")
        #expect(TimeText.clock(seconds: 1e300) == "2777:46:40")
        #expect(TimeText.clock(Duration(secondsComponent: .min, attosecondsComponent: 0)) == "0:00")
        #expect(TimeText.clock(Duration(secondsComponent: .max, attosecondsComponent: 0)) == "2777:46:40")
        #expect(TimeText.length(1e300) == "2777 h 47 min")
        #expect(TimeText.length(.nan) == "0 s")
        #expect(TimeText.remaining(.infinity) == "1 s left")
    }

    @Test("the sample show is found where the build or the environment says")
    func sampleShowLocation() {
        let url = SampleShow.feedURL(environment: ["TRACKCAST_PKGDATADIR": "/opt/trackcast/share/trackcast"])
        #expect(url?.path == "/opt/trackcast/share/trackcast/sample/sample-show.xml")
    }
}
