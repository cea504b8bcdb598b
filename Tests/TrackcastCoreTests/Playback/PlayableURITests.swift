import Testing
import TrackcastCore

/// Which URIs may reach the player, whoever hands them over.
@Suite("Playable URI schemes")
struct PlayableURITests {
    @Test("files and web addresses play, in any case", arguments: [
        "file:///home/me/talk.opus", "http://example.org/a.mp3", "https://example.org/a.mp3",
        "HTTPS://example.org/a.mp3", "File:///tmp/x.webm",
    ])
    func allowed(uri: String) {
        #expect(PlayableURI.isAllowed(uri))
    }

    @Test("sources GStreamer knows but a podcast player has no business opening are refused", arguments: [
        "v4l2:///dev/video0", "udp://0.0.0.0:5004", "fd://0", "rtsp://example.org/cam", "smb://server/share/a.mp3",
        "pulse://", "alsa://hw:0", "appsrc://", "data:audio/mpeg;base64,AAAA", "javascript:alert(1)",
        "", "no scheme at all", "/home/me/talk.opus", "1http://example.org", "ht tp://example.org",
        "https", "file", "feed://example.org/rss",
    ])
    func refused(uri: String) {
        #expect(!PlayableURI.isAllowed(uri))
    }

    @Test("the scheme is read as RFC 3986 writes it")
    func scheme() {
        #expect(PlayableURI.scheme(of: "HTTPS://a") == "https")
        #expect(PlayableURI.scheme(of: "itms-podcast://a") == "itms-podcast")
        #expect(PlayableURI.scheme(of: "a+b.c-d:x") == "a+b.c-d")
        #expect(PlayableURI.scheme(of: "/path:with/colon") == nil)
        #expect(PlayableURI.scheme(of: ":nothing") == nil)
    }

    @Test("the list is the one MPRIS publishes: file, http, https")
    func list() {
        #expect(PlayableURI.schemes == ["file", "http", "https"])
    }
}
