import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("feed URL resolver")
struct FeedURLResolverTests {
    /// `resolve` skips asking URL for the host of an address `absoluteWebAddress`
    /// accepts; on these, tricky and plain, it must answer as it would
    /// without the shortcut: the address if URL parses it and finds a host,
    /// else nil. Every address is checked, whichever way the shortcut goes.
    @Test("the plain-host shortcut changes no verdict: resolve answers as URL and webOnly would", arguments: [
        "https://example.org", "https://example.org/", "http://example.org/a b.mp3", "https://EXAMPLE.org/Ep%201.mp3",
        "https://example.org:8443/x", "https://example.org:/x", "https://example.org:80:90/x", "https://example.org:8x/",
        "https://example.org?x=1", "https://example.org#top", "https://example.org/../a/./b", "https://a..b/c",
        "https://-/x", "https://./x", "https://1.2.3.4/x", "https://[::1]/x", "https://[::1]:80/x",
        "https://user:pass@example.org/x", "https://@example.org/x", "https:///x", "https://", "http://?x", "http://#x",
        "http://:80/x", "https://exa mple.org/x", "https://exämple.org/x", "https://xn--exmple-cua.org/x",
        "https://example.org\\x", "https://ex%41mple.org/x", "https://example.org/ünïcode", "https:/example.org/x",
        "https://example.org/a?b=c#d", "https://example.org:/", "https://:/", "http://a:", "http://a:1",
        "https://\u{301}example.org/x", "http://\u{200D}a/", "HTTPS://example.org/x", "https:// example.org/x",
        "https://example.org @evil/x", "https://ex_ample.org/x",
    ])
    func plainHostShortcut(_ address: String) {
        let withoutShortcut = URL(string: address).flatMap(FeedURLResolver.webOnly)
        #expect(FeedURLResolver.resolve(address, against: nil) == withoutShortcut,
                "\(address): shortcut \(FeedURLResolver.absoluteWebAddress(address) == .plainHost ? "taken" : "not taken")")
        // Absolute, each of them: a feed's URL as the base changes nothing.
        #expect(FeedURLResolver.resolve(address, against: URL(string: "https://feeds.example.org/show/feed.xml")) == withoutShortcut,
                "\(address) against a base")
    }

    @Test("plain hosts are recognised, so the shortcut is taken at all", arguments: [
        "https://example.org", "https://media.example.org/show/1.mp3", "http://example.org:8080/feed?x=1#y",
    ])
    func plainHostsRecognised(_ address: String) {
        #expect(FeedURLResolver.absoluteWebAddress(address) == .plainHost)
    }
}
