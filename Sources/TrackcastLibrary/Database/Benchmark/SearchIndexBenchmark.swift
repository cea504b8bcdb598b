import Foundation

/// A large library for the search index's benchmark: shows of episodes with
/// notes of realistic length and word frequencies, some of them transcribed,
/// written without the index (as a library from before it), for
/// `SearchIndexBuilder` to index as the migration's backlog.
public enum SearchIndexBenchmark {
    /// Word frequencies follow Zipf's law over `vocabulary`, as in real
    /// speech and writing: a few words everywhere, most rare.
    public static let vocabulary: [String] = {
        let common = """
            the of and to in is that it for you we was on with as this be are have at but not they what so from \
            all about one an by there or just like their if people can know more think when out time some up \
            would which how then really our them do get because very who other see said year now way new make \
            episode show podcast talk music history science garden city river coffee winter summer market \
            language family school money health travel kitchen story science politics football weather film
            """.split(whereSeparator: \.isWhitespace).map(String.init)
        // 50,000 more, as a real vocabulary's long tail.
        let syllables = ["ka", "lo", "mi", "ren", "to", "sa", "vel", "dor", "in", "qua", "bri", "nel", "os", "tur", "ex"]
        var rare: [String] = []
        for a in syllables { for b in syllables { for c in syllables { for d in syllables where rare.count < 50_000 {
            rare.append(a + b + c + d)
        } } } }
        return common + rare
    }()

    /// Fills an empty library; returns the bytes of text (titles and notes) written.
    public static func fill(_ store: LibraryStore, shows: Int, episodesPerShow: Int, transcribed: Int,
                            seed: UInt64 = 25) async throws -> Int {
        try await store.fillSearchSynthetic(shows: shows, episodesPerShow: episodesPerShow, transcribed: transcribed,
                                            seed: seed)
    }

    /// An hour's transcript (or `minutes`), a cue every 4 seconds, the same for the same episode in every run.
    public static func transcript(for episode: EpisodeID, minutes: Int = 60) -> Transcript {
        var words = WordDraw(seed: UInt64(bitPattern: episode.rawValue) &* 7919)
        let cues = (0..<(minutes * 15)).map { index in
            TranscriptCue(start: Double(index * 4), end: Double(index * 4 + 4), text: words.sentence(length: 12))
        }
        return Transcript(cues: cues)
    }

    /// The library file's pages in bytes (what `VACUUM` would keep is smaller; this is what the user's disk holds).
    public static func databaseBytes(_ store: LibraryStore) async throws -> Int {
        try await store.databaseBytes()
    }

    /// Each query `runs` times after a warm-up, from the caller's side of the store's actor.
    public static func measure(_ store: LibraryStore, queries: [(name: String, text: String)],
                               runs: Int) async throws -> [QueryTiming] {
        var timings: [QueryTiming] = []
        let clock = ContinuousClock()
        for (name, text) in queries {
            let query = SearchQuery(text)
            _ = try await store.search(query)
            var samples: [Duration] = []
            for _ in 0..<runs { samples.append(try await clock.measure { _ = try await store.search(query) }) }
            timings.append(QueryTiming(name: name, samples: samples))
        }
        return timings
    }
}

/// Words drawn from `SearchIndexBenchmark.vocabulary` by Zipf's law, deterministically.
struct WordDraw {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Rank r with probability about 1/r: the inverse of the harmonic CDF, approximately.
    mutating func word() -> String {
        let vocabulary = SearchIndexBenchmark.vocabulary
        let uniform = Double(next() >> 11) / Double(1 << 53)
        let rank = Int(pow(Double(vocabulary.count), uniform)) - 1
        return vocabulary[min(max(rank, 0), vocabulary.count - 1)]
    }

    mutating func sentence(length: Int) -> String {
        (0..<length).map { _ in word() }.joined(separator: " ") + "."
    }
}

extension LibraryStore {
    /// The bulk insert behind `SearchIndexBenchmark.fill`, in one
    /// transaction, leaving every episode in the index's backlog.
    func fillSearchSynthetic(shows: Int, episodesPerShow: Int, transcribed: Int, seed: UInt64) throws -> Int {
        let now = Date().databaseSeconds
        var words = WordDraw(seed: seed)
        var textBytes = 0
        try connection.transaction {
            var written = 0
            for show in 0..<shows {
                let title = "Show \(show): \(words.sentence(length: 3))"
                try connection.execute("INSERT INTO shows (feed_url, title, author, subscribed) VALUES (?, ?, ?, ?)",
                                       ["https://feeds.example.org/\(show).xml", title, "Host \(show)", now])
                let showID = ShowID(rawValue: connection.lastInsertedRowID)
                for index in 0..<episodesPerShow {
                    // Notes of 150-450 words in paragraphs, about 1-3 KB, as real notes run.
                    let paragraphs = (0..<(3 + index % 4)).map { _ in
                        (0..<6).map { _ in words.sentence(length: 8 + index % 9) }.joined(separator: " ")
                    }
                    let notes = "<p>" + paragraphs.joined(separator: "</p>\n<p>") + "</p>"
                    let episodeTitle = "Episode \(index): \(words.sentence(length: 6))"
                    textBytes += episodeTitle.utf8.count + notes.utf8.count
                    try connection.execute("""
                        INSERT INTO episodes (show_id, identity, content_hash, guid, title, published, content_html, first_seen)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, [showID, "guid:\(show)-\(index)", Int64(index), "\(show)-\(index)", episodeTitle,
                              now - Int64(index) * 86_400, notes, now])
                    let episode = EpisodeID(rawValue: connection.lastInsertedRowID)
                    if written < transcribed, index % max(1, shows * episodesPerShow / max(1, transcribed)) == 0 {
                        try connection.execute("""
                            INSERT INTO transcripts (episode_id, position, url, type) VALUES (?, 0, ?, 'text/vtt')
                            """, [episode, "https://media.example.org/\(episode.rawValue).vtt"])
                        written += 1
                    }
                }
            }
            try connection.execute("""
                INSERT INTO settings (key, value) SELECT ?, CAST(max(id) AS TEXT) FROM episodes WHERE true
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, [Self.unindexedThroughSetting])
        }
        return textBytes
    }

    func databaseBytes() throws -> Int {
        let pages = try connection.queryFirst("PRAGMA page_count") { $0.int(0) } ?? 0
        let size = try connection.queryFirst("PRAGMA page_size") { $0.int(0) } ?? 0
        return pages * size
    }
}
