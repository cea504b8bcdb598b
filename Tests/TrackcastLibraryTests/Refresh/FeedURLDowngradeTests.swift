import Foundation
import Testing
@testable import TrackcastLibrary

/// A feed read over HTTPS stays read over HTTPS: whoever can answer one
/// request (a captive portal, a hostile network, a compromised host) must
/// not be able to move the show to plain HTTP, where every later refresh
/// could be rewritten in transit. The store is where every move is made
/// (redirects on refresh and on a 304, `itunes:new-feed-url`), so the tests
/// drive it with what the fetcher would hand it. (The test HTTP server
/// speaks no TLS, so the fetch itself is not part of them.)
@Suite("Feed addresses never downgrade to HTTP")
struct FeedURLDowngradeTests {
    private static let secure = URL(string: "https://feeds.example.org/show.xml")!
    private static let plain = URL(string: "http://feeds.example.org/show.xml")!
    private static let elsewhere = URL(string: "https://cdn.example.net/show.xml")!

    private func subscribed() async throws -> (LibraryStore, ShowID, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let result = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: Self.secure, etag: nil, lastModified: nil)
        return (store, result.showID, directory)
    }

    @Test("a permanent redirect from https to http is followed for this fetch but not stored, on a refresh and on a 304")
    func redirect() async throws {
        let (store, id, directory) = try await subscribed()
        _ = directory
        let applied = try await store.applyRefreshed(SampleFeed.feed(1...3), to: id, requestedFrom: Self.secure,
                                                     permanentURL: Self.plain, etag: nil, lastModified: nil,
                                                     layout: nil, at: Date())
        #expect(applied?.feedURL == Self.secure)
        #expect(try await store.show(id)?.feedURL == Self.secure)
        let notModified = try await store.recordNotModified(id, requestedFrom: Self.secure, permanentURL: Self.plain,
                                                            etag: nil, lastModified: nil, at: Date())
        #expect(notModified == Self.secure)
        #expect(try await store.show(id)?.feedURL == Self.secure)
        #expect(try await store.moveShow(id, to: Self.plain, keepingValidators: true) == false)
        #expect(try await store.show(id)?.feedURL == Self.secure)
    }

    @Test("an itunes:new-feed-url of http is not taken over https")
    func newFeedURL() async throws {
        let (store, id, directory) = try await subscribed()
        _ = directory
        var feed = SampleFeed.feed(1...3)
        feed.newFeedURL = Self.plain
        let applied = try await store.applyRefreshed(feed, to: id, requestedFrom: Self.secure, permanentURL: nil,
                                                     etag: nil, lastModified: nil, layout: nil, at: Date())
        #expect(applied?.feedURL == Self.secure)
        #expect(try await store.show(id)?.feedURL == Self.secure)
    }

    @Test("moves that keep https, or go from http to https, are still made")
    func upgradesAndSecureMoves() async throws {
        let (store, id, directory) = try await subscribed()
        _ = directory
        #expect(try await store.moveShow(id, to: Self.elsewhere, keepingValidators: false))
        #expect(try await store.show(id)?.feedURL == Self.elsewhere)
        let other = try await store.apply(feed: SampleFeed.feed(5...6), fetchedFrom: Self.plain, etag: nil, lastModified: nil)
        #expect(try await store.moveShow(other.showID, to: Self.secure, keepingValidators: false))
        #expect(try await store.show(other.showID)?.feedURL == Self.secure)
    }

    @Test("what a subscription keeps of a redirect: never an http address for an https one", arguments: [
        ("https://a.example/f", "http://a.example/f", true),
        ("HTTPS://a.example/f", "http://b.example/f", true),
        ("https://a.example/f", "https://b.example/f", false),
        ("http://a.example/f", "https://a.example/f", false),
        ("http://a.example/f", "http://b.example/f", false),
    ])
    func downgrade(from: String, to: String, isDowngrade: Bool) {
        #expect(LibraryStore.isDowngrade(from: URL(string: from)!, to: URL(string: to)!) == isDowngrade)
    }
}
