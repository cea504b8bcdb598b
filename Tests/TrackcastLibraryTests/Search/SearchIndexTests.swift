import Foundation
import Testing
@testable import TrackcastLibrary

/// The search index against a real library file: what refreshes, transcripts
/// and unsubscribing write into it, and what searches find.
@Suite("Search index")
struct SearchIndexTests {
    let directory: TemporaryDirectory
    let store: LibraryStore

    init() async throws {
        directory = try TemporaryDirectory()
        store = try await LibraryStore(directory: directory.url)
    }

    static func episode(_ number: Int, title: String, notes: String = "Nothing much.",
                        chapters: [FeedChapter] = []) -> FeedEpisode {
        FeedEpisode(guid: "guid-\(number)", title: title, published: SampleFeed.date(day: number),
                    description: notes,
                    enclosures: [FeedEnclosure(url: URL(string: "https://media.example.org/\(number).mp3")!)],
                    chapters: chapters)
    }

    @discardableResult
    func subscribe(_ episodes: [FeedEpisode], title: String = "A Show", url: URL = SampleFeed.url) async throws
        -> FeedApplyResult {
        try await store.apply(feed: Feed(title: title, author: "Ann Author", episodes: episodes), fetchedFrom: url,
                              etag: nil, lastModified: nil)
    }

    func search(_ text: String, limit: Int = 100) async throws -> [SearchMatch] {
        try await store.search(SearchQuery(text), limit: limit)
    }

    func episodeID(titled title: String) async throws -> EpisodeID {
        let show = try #require(try await store.shows().first)
        return try #require(try await store.episodes(of: show.id, limit: 100).first { $0.title == title }).id
    }

    /// FTS5's own check that its indexes and their text agree.
    func expectIndexIsSound() throws {
        let connection = try directory.openConnection()
        for table in ["search_heads", "search_notes", "search_cues"] {
            try connection.execute("INSERT INTO \(table) (\(table)) VALUES ('integrity-check')")
        }
    }

    /// The rows of the three FTS5 tables.
    func indexedTexts() throws -> Int {
        let connection = try directory.openConnection()
        return try connection.count("search_heads") + connection.count("search_notes") + connection.count("search_cues")
    }

    @Test("a word in a title ranks that episode above notes and transcripts that hold it")
    func titleRanksFirst() async throws {
        try await subscribe([
            Self.episode(1, title: "Cooking at home", notes: "We talk about the harbour and boats."),
            Self.episode(2, title: "The harbour at night", notes: "Lights."),
            Self.episode(3, title: "Weather", notes: "Rain."),
        ])
        let weather = try await episodeID(titled: "Weather")
        try await store.indexTranscript(Transcript(cues: [
            TranscriptCue(start: 10, end: 12, text: "Down at the harbour the wind rose."),
        ]), of: weather)

        let matches = try await search("harbour")
        #expect(matches.map(\.episodeTitle) == ["The harbour at night", "Cooking at home", "Weather"])
        #expect(matches.map(\.place) == [.title, .notes, .transcript(start: 10)])
        #expect(matches[0].showTitle == "A Show")
        try expectIndexIsSound()
    }

    @Test("a word only in a transcript returns its cue's time; the transcript replaces the one before")
    func transcriptCueTime() async throws {
        try await subscribe([Self.episode(1, title: "Talk")])
        let id = try await episodeID(titled: "Talk")
        try await store.indexTranscript(Transcript(cues: [
            TranscriptCue(start: 1, end: 5, text: "Hello and welcome."),
            TranscriptCue(start: 2470.5, end: 2475, text: "the marmalade question", speaker: "Bo"),
        ]), of: id)
        let match = try #require(try await search("marmalade").first)
        #expect(match.episode == id && match.place == .transcript(start: 2470.5))
        #expect(match.snippet.marked(open: "[", close: "]") == "Bo: the [marmalade] question")
        #expect(try await search("Bo marmalade").count == 1, "the speaker is searchable with the words")

        try await store.indexTranscript(Transcript(cues: [TranscriptCue(start: 3, end: 4, text: "jam")]), of: id)
        #expect(try await search("marmalade").isEmpty)
        #expect(try await search("jam").map(\.place) == [.transcript(start: 3)])
        try expectIndexIsSound()
    }

    @Test("accents fold both ways and the last word is a prefix while typed")
    func diacriticsAndPrefixes() async throws {
        try await subscribe([Self.episode(1, title: "Zürich by night", notes: "Crème brûlée in Kraków")])
        #expect(try await search("zurich").map(\.place) == [.title])
        #expect(try await search("ZURICH ").map(\.place) == [.title])
        #expect(try await search("krakow creme").map(\.place) == [.notes])
        #expect(try await search("Zür").map(\.place) == [.title], "typing: a prefix")
        #expect(try await search("zur ").isEmpty, "a finished word is a word, not a prefix")
        #expect(try await search("night zu").map(\.place) == [.title])
    }

    @Test("a first letter typed after other words waits for the next; alone it is a word")
    func oneLetterPrefix() async throws {
        try await subscribe([Self.episode(1, title: "Zürich by night"), Self.episode(2, title: "X marks the spot")])
        #expect(try await search("night z").map(\.episodeTitle) == ["Zürich by night"])
        #expect(try await search("x").map(\.episodeTitle) == ["X marks the spot"])
        #expect(try await search("z").isEmpty, "not every word that starts with z")
    }

    @Test("a word in more notes than BM25 ranks still lists titles first, then notes, at most the limit")
    func commonWord() async throws {
        let count = LibraryStore.rankedWordLimit + 50
        try await subscribe((1...count).map { Self.episode($0, title: "Episode \($0)", notes: "Common words.") }
            + [Self.episode(count + 1, title: "A common title", notes: "Other words.")])
        let matches = try await search("common")
        #expect(matches.count == 100)
        #expect(matches.first?.episodeTitle == "A common title")
        #expect(matches.first?.place == .title)
        #expect(matches.dropFirst().allSatisfy { $0.place == .notes })
        #expect(Set(matches.map(\.episode)).count == 100)
        let notes = matches.dropFirst().map(\.episode.rawValue)
        #expect(notes == notes.sorted(by: >), "a word in that many notes: newest indexed first, not scored")
        #expect(try await search("common", limit: 5000).count == count + 1, "no match lost past the ranked ones")
    }

    @Test("a transcript's matches come in the order they were said")
    func cuesInOrder() async throws {
        try await subscribe([Self.episode(1, title: "Talk")])
        let talk = try await episodeID(titled: "Talk")
        try await store.indexTranscript(Transcript(cues: [10, 20, 30].map {
            TranscriptCue(start: $0, end: $0 + 1, text: "the harbour again")
        }), of: talk)
        #expect(try await search("harbour").map(\.place) == [10, 20, 30].map { .transcript(start: $0) })
    }

    @Test("a search superseded by the next one reports it was cancelled")
    func supersededSearch() async throws {
        try await subscribe([Self.episode(1, title: "Harbour lights")])
        let superseded = Task { [store] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.search(SearchQuery("harbour"))
        }
        await #expect(throws: CancellationError.self) { try await superseded.value }
        #expect(try await search("harbour").count == 1, "the next search runs")
    }

    @Test("the show's title and author find its episodes")
    func showWords() async throws {
        try await subscribe([Self.episode(1, title: "One"), Self.episode(2, title: "Two")], title: "Gardening Weekly")
        #expect(try await search("gardening").count == 2)
        #expect(try await search("author two").map(\.episodeTitle) == ["Two"])
        try await subscribe([Self.episode(1, title: "One"), Self.episode(2, title: "Two")], title: "Plants Daily")
        #expect(try await search("gardening").isEmpty, "a renamed show's old name is gone")
        #expect(try await search("plants").count == 2)
        try expectIndexIsSound()
    }

    @Test("chapters are found with their start")
    func chapters() async throws {
        try await subscribe([Self.episode(1, title: "Show", chapters: [
            FeedChapter(start: 0, title: "Intro"), FeedChapter(start: 723, title: "Listener mail"),
        ])])
        #expect(try await search("mail").map(\.place) == [.chapter(start: 723)])
    }

    @Test("chapters learned after the refresh (a chapters file, the media) are found with their start and outlive refreshes")
    func learnedChapters() async throws {
        let feed = [Self.episode(1, title: "Show", chapters: [FeedChapter(start: 0, title: "Intro")])]
        try await subscribe(feed)
        let id = try await episodeID(titled: "Show")
        let learned = [Chapter(start: 0, title: "Intro", source: .chaptersFile),
                       Chapter(start: 723, title: "Listener mail", source: .chaptersFile),
                       Chapter(start: 900, title: nil, source: .embedded)]
        #expect(try await store.indexChapters(learned, of: id))
        #expect(try await search("mail").map(\.place) == [.chapter(start: 723)])
        #expect(try await search("intro").count == 1, "the feed's chapter is not indexed twice")
        #expect(try await store.indexChapters(learned, of: id) == false, "the same again writes nothing")

        try await subscribe([Self.episode(1, title: "Show", notes: "Changed notes.",
                                          chapters: [FeedChapter(start: 0, title: "Intro")])])
        #expect(try await search("mail").map(\.place) == [.chapter(start: 723)], "a refresh keeps them")

        try await store.indexChapters([Chapter(start: 60, title: "Letters", source: .embedded)], of: id)
        #expect(try await search("mail").isEmpty)
        #expect(try await search("letters").map(\.place) == [.chapter(start: 60)])
        try expectIndexIsSound()
    }

    @Test("a refresh that changes an episode's notes changes what finds it")
    func refreshChangesNotes() async throws {
        try await subscribe([Self.episode(1, title: "One", notes: "<p>All about <b>tomatoes</b></p>")])
        #expect(try await search("tomatoes").count == 1)
        let result = try await subscribe([Self.episode(1, title: "One", notes: "All about cucumbers")])
        #expect(result.updated == 1)
        #expect(try await search("tomatoes").isEmpty)
        #expect(try await search("cucumbers").map(\.place) == [.notes])
        let places = try directory.openConnection().count("search_places")
        #expect(places == 2, "one title and one notes row, not the old ones too")
        try expectIndexIsSound()
    }

    @Test("a refresh that changes an episode but not its text leaves its index rows as they were")
    func unchangedTextKept() async throws {
        let chapters = [FeedChapter(start: 5, title: "Start")]
        try await subscribe([Self.episode(1, title: "One", notes: "<p>Notes</p>", chapters: chapters)])
        let places = { try directory.openConnection().query("SELECT id, kind FROM search_places ORDER BY id") { "\($0.int(0)):\($0.int(1))" } }
        let before = try places()
        var changed = Self.episode(1, title: "One", notes: "<p>Notes</p>", chapters: chapters)
        changed.enclosures = [FeedEnclosure(url: URL(string: "https://media.example.org/1-fixed.mp3")!)]
        #expect(try await subscribe([changed]).updated == 1)
        #expect(try places() == before, "nothing rewritten")

        changed.title = "One, renamed"
        try await subscribe([changed])
        let after = try places()
        #expect(after.count == before.count && after.filter { !before.contains($0) }.map { $0.hasSuffix(":0") } == [true],
                "only the title row is new: \(before) → \(after)")
        #expect(try await search("renamed").map(\.place) == [.title])
        try expectIndexIsSound()
    }

    @Test("unsubscribing removes the show's rows, transcripts too")
    func unsubscribeRemoves() async throws {
        try await subscribe([Self.episode(1, title: "Kept")], url: SampleFeed.otherURL)
        let kept = try #require(try await store.shows().first)
        try await subscribe([Self.episode(1, title: "Gone")])
        let gone = try #require(try await store.show(feedURL: SampleFeed.url))
        let id = try #require(try await store.episodes(of: gone.id, limit: 1).first).id
        try await store.indexTranscript(Transcript(cues: [TranscriptCue(start: 1, end: 2, text: "Gone words")]), of: id)
        #expect(try await search("gone").count == 2)

        try await store.unsubscribe(gone.id)
        #expect(try await search("gone").isEmpty)
        #expect(try await search("kept").map(\.show) == [kept.id])
        let connection = try directory.openConnection()
        #expect(try connection.count("search_places") == 2)
        #expect(try indexedTexts() == 2)
        try expectIndexIsSound()
    }

    @Test("a show unsubscribed on another device (sync) leaves no rows behind")
    func syncRemovalRemoves() async throws {
        try await subscribe([Self.episode(1, title: "Synced away")])
        let id = try await episodeID(titled: "Synced away")
        try await store.indexTranscript(Transcript(cues: [TranscriptCue(start: 1, end: 2, text: "said words")]), of: id)
        _ = try await store.applyRemoteSubscriptions(SubscriptionChanges(add: [], remove: [SampleFeed.url.absoluteString],
                                                                         timestamp: 1))
        #expect(try await store.shows().isEmpty)
        #expect(try await search("synced").isEmpty)
        #expect(try await search("said").isEmpty)
        let connection = try directory.openConnection()
        #expect(try connection.count("search_places") == 0 && indexedTexts() == 0)
        try expectIndexIsSound()
    }

    static let hostileQueries = ["\"", "\"\"", "NEAR(", "NEAR(a b", "*", "-", ":", "a:b", "title:x", "-x", "x*",
                                 "(", ")", "^a", "+", "AND", "OR", "NOT", "a OR", "NEAR", "{title}: a", "'", "\u{301}",
                                 "\u{0}", "\\", "%", "a\"b", ""]

    @Test("FTS5 syntax typed is searched as text, never an SQL error", arguments: hostileQueries)
    func hostileQueriesAreText(_ text: String) async throws {
        try await subscribe([Self.episode(1, title: "Ask me: NEAR the end OR not - \"quoted\" *stars*")])
        _ = try await search(text)
        _ = try await search(text + " ")
    }

    @Test("operator words and punctuation find the text that holds them")
    func operatorWordsAreWords() async throws {
        try await subscribe([Self.episode(1, title: "Ask me: NEAR the end OR not - \"quoted\" *stars*", notes: "Plain.")])
        for text in ["NEAR(", "me:", "OR", "NOT", "\"quoted\"", "*stars*", "the end:", "- not"] {
            #expect(try await search(text).count == 1, "\(text)")
        }
    }

    @Test("snippets mark the match and carry feed text as text")
    func snippets() async throws {
        try await subscribe([Self.episode(1, title: "a <b> & c < d pickle")])
        let snippet = try #require(try await search("pickle").first).snippet
        #expect(snippet.text == "a <b> & c < d pickle")
        #expect(snippet.markup == "a &lt;b&gt; &amp; c &lt; d <b>pickle</b>")
    }

    @Test("control characters in feed text cannot forge a match mark")
    func controlCharacters() async throws {
        try await subscribe([Self.episode(1, title: "x\u{2}fake\u{3}y real")])
        let snippet = try #require(try await search("real").first).snippet
        #expect(snippet.pieces.filter(\.isMatch).map(\.text) == ["real"])
    }
}
