import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("OPML import and export")
struct OPMLTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/opml/" + name))
    }

    static func pairs(_ subscriptions: [FeedSubscription]) -> [String] {
        subscriptions.map { "\($0.title ?? "-") <\($0.feedURL.absoluteString)>" }
    }

    @Test("gPodder's export: titles from `title`, not the description gPodder puts in `text`")
    func gpodder() throws {
        let subscriptions = try OPMLReader().read(Self.fixture("gpodder.opml"))
        #expect(Self.pairs(subscriptions) == [
            "Linux Action News <https://linuxactionnews.com/rss>",
            "Late Night Linux <https://latenightlinux.com/feed/mp3>",
            "Free as in Freedom <http://faif.us/feeds/cast-ogg/>",
            "Chaosradio Express <https://cre.fm/feed/m4a/>",
            "The Changelog: Software Development, Open Source <https://changelog.com/podcast/feed>",
        ])
    }

    @Test("AntennaPod's export, with web sites")
    func antennaPod() throws {
        let subscriptions = try OPMLReader().read(Self.fixture("antennapod.opml"))
        #expect(Self.pairs(subscriptions) == [
            "99% Invisible <https://feeds.simplecast.com/BqbsxVfO>",
            "Radiolab <https://feeds.feedburner.com/radiolab>",
            "Darknet Diaries <https://feeds.megaphone.fm/darknetdiaries>",
            "Hard Fork <https://feeds.simplecast.com/l2i9YnTd>",
        ])
        #expect(subscriptions[0].link == URL(string: "https://99percentinvisible.org"))
    }

    @Test("GNOME Podcasts' export: one line, no XML declaration")
    func gnomePodcasts() throws {
        let subscriptions = try OPMLReader().read(Self.fixture("gnome-podcasts.opml"))
        #expect(Self.pairs(subscriptions) == [
            "This Week in GNOME <https://thisweek.gnome.org/index.xml>",
            "LINUX Unplugged <https://linuxunplugged.com/rss>",
            "Intercepted <https://feeds.megaphone.fm/intercepted>",
        ])
    }

    @Test("nested folders are flattened; links, folders and repeats are skipped; Latin-1 and feed:// are read")
    func nested() throws {
        let subscriptions = try OPMLReader().read(Self.fixture("nested.opml"))
        #expect(Self.pairs(subscriptions) == [
            "Security Now <https://feeds.twit.tv/sn.xml>",
            "Software Engineering Radio <https://seradio.libsyn.com/rss>",
            "CoRecursive <http://corecursive.libsyn.com/feed>",
            "Zeitsprung: Geschichten aus der Geschichte <https://www.zeitsprung.fm/feed/mp3/>",
            "Café Europa <https://example.net/cafe-europa.xml>",
        ])
    }

    @Test("a file that is not OPML is refused", arguments: [
        ("broken.opml", "malformed"), ("../feeds/podcasting20.xml", "notOPML"), ("../feeds/not-xml.txt", "malformed"),
    ])
    func refused(_ name: String, _ kind: String) throws {
        let error = #expect(throws: OPMLError.self) { try OPMLReader().read(Self.fixture(name)) }
        switch error {
        case .malformed?: #expect(kind == "malformed")
        case .notOPML(let root)?: #expect(kind == "notOPML" && root == "rss")
        case nil: break
        }
    }

    @Test("a broken list says in words what is wrong, and on which line", arguments: [
        ("broken.opml", 7, "the file ends before the list does"),
        ("<opml><body>\n<outline xmlUrl=\"https://example.org/f.xml\"></body>\n</opml>", 2,
         "a closing tag does not match the tag it should close"),
        ("", 1, "there is no XML in it"),
        ("just words", 1, "there is no XML in it"),
    ])
    func brokenListReason(_ source: String, _ line: Int, _ reason: String) throws {
        let data = source.hasSuffix(".opml") ? try Self.fixture(source) : Data(source.utf8)
        #expect(throws: OPMLError.malformed(line: line, reason: reason)) { try OPMLReader().read(data) }
    }

    @Test("external entities are not loaded")
    func externalEntity() throws {
        let subscriptions = (try? OPMLReader().read(Self.fixture("external-entity.opml"))) ?? []
        #expect(!subscriptions.contains { $0.title?.contains("root:") == true })
    }

    @Test("import subscribes every feed once, in one go; a second import skips them all")
    func importIntoLibrary() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)

        let first = try await store.importOPML(Self.fixture("antennapod.opml"))
        let second = try await store.importOPML(Self.fixture("antennapod.opml"))

        #expect(first.added.count == 4 && first.skipped == 0)
        #expect(second.added.isEmpty && second.skipped == 4)
        let shows = try await store.shows()
        #expect(shows.map(\.title) == ["99% Invisible", "Darknet Diaries", "Hard Fork", "Radiolab"])
        #expect(shows.allSatisfy { $0.refresh.lastRefreshed == nil })
    }

    @Test("a file that is not OPML leaves the library untouched")
    func failedImportWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        await #expect(throws: OPMLError.self) { try await store.importOPML(Self.fixture("broken.opml")) }
        #expect(try await store.shows().isEmpty)
    }

    @Test("export then import into an empty library gives back the same feeds, titles and sites",
          arguments: ["gpodder.opml", "antennapod.opml", "gnome-podcasts.opml", "nested.opml"])
    func roundTrip(_ name: String) async throws {
        let source = try TemporaryDirectory()
        let sourceStore = try await LibraryStore(directory: source.url)
        _ = try await sourceStore.importOPML(Self.fixture(name))

        let exported = try await sourceStore.exportOPML()
        let copy = try TemporaryDirectory()
        let copyStore = try await LibraryStore(directory: copy.url)
        _ = try await copyStore.importOPML(exported)

        let original = try await sourceStore.shows().map { [$0.feedURL.absoluteString, $0.title, $0.link?.absoluteString] }
        let copied = try await copyStore.shows().map { [$0.feedURL.absoluteString, $0.title, $0.link?.absoluteString] }
        #expect(copied == original)
        #expect(copied.count == (try OPMLReader().read(Self.fixture(name)).count))
    }

    @Test("titles with markup characters, quotes, line breaks and non-Latin text survive export")
    func escaping() throws {
        let awkward = [
            FeedSubscription(feedURL: URL(string: "https://example.org/a.xml?x=1&y=2")!,
                             title: "Tom & Jerry's <Show> \"Live\"\nSecond line", link: URL(string: "https://example.org/?a=1&b=2")),
            FeedSubscription(feedURL: URL(string: "https://example.org/b.xml")!, title: "日本語ポッドキャスト 🎧"),
            FeedSubscription(feedURL: URL(string: "https://example.org/c.xml")!, title: nil),
        ]
        let reread = try OPMLReader().read(OPMLWriter().write(awkward))
        #expect(reread[0] == awkward[0])
        #expect(reread[1] == awkward[1])
        // A show without a title is exported under its URL, as `text` must not be empty.
        #expect(reread[2].feedURL == awkward[2].feedURL)
    }
}
