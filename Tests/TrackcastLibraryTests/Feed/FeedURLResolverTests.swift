import Foundation
import Testing
import TestSupport
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
        let shortcut = FeedURLResolver.absoluteWebAddress(address).map { "\($0)" } ?? "none"
        #expect(FeedURLResolver.resolve(address, against: nil) == withoutShortcut, "\(address): shortcut \(shortcut)")
        // Absolute, each of them: a feed's URL as the base changes nothing.
        #expect(FeedURLResolver.resolve(address, against: URL(string: "https://feeds.example.org/show/feed.xml")) == withoutShortcut,
                "\(address) against a base")
        // The link kept as text (a verbatim address) prints, compares and encodes as that URL.
        let link = FeedURLResolver.resolveLink(address, against: nil)
        #expect(link?.absoluteString == withoutShortcut?.absoluteString, "\(address): shortcut \(shortcut)")
        #expect(link == withoutShortcut.map(FeedLink.init), "\(address): shortcut \(shortcut)")
    }

    @Test("plain hosts are recognised, so the shortcuts are taken at all", arguments: [
        ("https://example.org", FeedURLResolver.AbsoluteWebAddress.verbatim),
        ("https://media.example.org/show/1.mp3", .verbatim),
        ("https://example.org/a?b=c&d=%2F#e", .verbatim),
        ("http://example.org:8080/feed?x=1#y", .plainHost),
        ("https://example.org/a b", .plainHost),
    ])
    func plainHostsRecognised(_ address: String, _ expected: FeedURLResolver.AbsoluteWebAddress) {
        #expect(FeedURLResolver.absoluteWebAddress(address) == expected)
    }

    /// A verbatim address is kept as its text and made a URL only when asked
    /// for (`FeedLink`), on the promise that `URL(string:)` takes it as it
    /// stands. Addresses of the characters around each rule (every ASCII
    /// punctuation, `%` with and without hex digits, `#` twice, ports) hold
    /// `absoluteWebAddress` to that promise.
    @Test("a verbatim address is one URL takes as it stands, and links compare as their URLs")
    func verbatimAddressesAreWhatURLMakes() {
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_SEED")
        var random = SplitMix64(seed: seed)
        let hosts = ["example.org", "a", "1.2.3.4", "a..b", "-", "EXAMPLE.org", "ex_ample.org", "ex%41mple.org", "", "[::1]", "ä.org"]
        let pieces = ["/", "a", "Z", "9", "%", "%4", "%41", "%zz", "%e2%82%ac", "?", "#", "&", "=", ":", "@", "+", ",", ";", "!", "$", "'",
                      "(", ")", "*", "-", ".", "_", "~", " ", "\"", "<", ">", "[", "]", "{", "}", "|", "\\", "^", "`", "\u{7F}", "\t",
                      "é", "..", "//", ":80", ":"]
        var verbatim = 0
        var previous = "https://example.org/"
        for _ in 0..<10_000 {
            var address = (random.next() % 2 == 0 ? "https://" : "http://") + hosts[Int(random.next() % UInt64(hosts.count))]
            for _ in 0..<Int(random.next() % 10) {
                address += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            guard FeedURLResolver.absoluteWebAddress(address) == .verbatim else { continue }
            verbatim += 1
            let url = URL(string: address)
            #expect(url?.absoluteString == address, "\(address), seed \(seed)")
            #expect(url.flatMap(FeedURLResolver.webOnly) != nil, "\(address), seed \(seed)")
            let link = FeedLink(verbatimWebAddress: address)
            #expect(link.url == url, "\(address), seed \(seed)")
            #expect(link == url.map(FeedLink.init), "\(address), seed \(seed)")
            // Two verbatim links are equal as their URLs are.
            #expect((link == FeedLink(verbatimWebAddress: previous)) == (url == URL(string: previous)), "\(address), seed \(seed)")
            previous = random.next() % 4 == 0 ? previous : address
        }
        #expect(verbatim > 400, "only \(verbatim) verbatim addresses made, seed \(seed)")
    }
}
