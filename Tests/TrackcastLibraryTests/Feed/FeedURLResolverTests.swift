import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("feed URL resolver")
struct FeedURLResolverTests {
    /// `resolve` skips asking URL for the host of an address `hasPlainHost`
    /// accepts; on these, tricky and plain, it must accept none whose host URL
    /// would find missing or empty.
    @Test("the plain-host shortcut accepts only addresses URL finds a host in", arguments: [
        "https://example.org", "https://example.org/", "http://example.org/a b.mp3", "https://EXAMPLE.org/Ep%201.mp3",
        "https://example.org:8443/x", "https://example.org:/x", "https://example.org:80:90/x", "https://example.org:8x/",
        "https://example.org?x=1", "https://example.org#top", "https://example.org/../a/./b", "https://a..b/c",
        "https://-/x", "https://./x", "https://1.2.3.4/x", "https://[::1]/x", "https://[::1]:80/x",
        "https://user:pass@example.org/x", "https://@example.org/x", "https:///x", "https://", "http://?x", "http://#x",
        "http://:80/x", "https://exa mple.org/x", "https://exämple.org/x", "https://xn--exmple-cua.org/x",
        "https://example.org\\x", "https://ex%41mple.org/x", "https://example.org/ünïcode", "https:/example.org/x",
        "https://example.org/a?b=c#d", "https://example.org:/", "https://:/", "http://a:", "http://a:1",
    ])
    func plainHostShortcut(_ address: String) {
        guard FeedURLResolver.hasPlainHost(address), let url = URL(string: address) else { return }
        #expect(FeedURLResolver.webOnly(url) != nil, "\(address)")
    }

    @Test("plain hosts are recognised, so the shortcut is taken at all", arguments: [
        "https://example.org", "https://media.example.org/show/1.mp3", "http://example.org:8080/feed?x=1#y",
    ])
    func plainHostsRecognised(_ address: String) {
        #expect(FeedURLResolver.hasPlainHost(address))
    }
}
