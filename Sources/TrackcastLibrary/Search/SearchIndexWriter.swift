import Foundation

/// Writes the search index's rows (`search_places` and the FTS5 tables
/// `search_heads`, `search_notes` and `search_cues`, see
/// `LibrarySchema.version7`) for episodes, inside the caller's transaction,
/// so an episode and its index rows commit together.
///
/// Every write replaces what the index held for the same episode and kinds
/// (or keeps it, when its text is the same), so indexing an episode twice
/// (a refresh meeting the `SearchIndexBuilder`) never duplicates a row.
///
/// Rows of the FTS5 tables are written when the transaction commits
/// (`SQLiteConnection.executeAtCommit`), so that its rows make one segment;
/// whatever reads or changes those tables here runs the held rows first.
struct SearchIndexWriter {
    let connection: SQLiteConnection

    /// What an episode offers the index from its feed.
    struct EpisodeText {
        var title: String?
        var subtitle: String?
        var description: String?
        var contentHTML: String?
        var chapters: [(start: TimeInterval, title: String)]

        init(title: String?, subtitle: String?, description: String?, contentHTML: String?,
             chapters: [(start: TimeInterval, title: String)]) {
            self.title = title
            self.subtitle = subtitle
            self.description = description
            self.contentHTML = contentHTML
            self.chapters = chapters
        }

        init(_ episode: FeedEpisode) {
            self.init(title: episode.title, subtitle: episode.subtitle, description: episode.description,
                      contentHTML: episode.contentHTML, chapters: episode.chapters.map { ($0.start, $0.title) })
        }

        /// The notes as one plain text: feeds often carry the same notes
        /// two or three times (description, content, summary); the longest
        /// serves, with a subtitle that says something else before it.
        var notes: String {
            let bodies = [contentHTML, description].compactMap { $0 }.map(SearchIndexWriter.plain)
            let body = bodies.max { $0.utf8.count < $1.utf8.count } ?? ""
            guard let subtitle = subtitle.map(SearchIndexWriter.plain), !subtitle.isEmpty,
                  !body.hasPrefix(subtitle) else { return body }
            return body.isEmpty ? subtitle : subtitle + "\n" + body
        }
    }

    /// The show's words that every one of its episodes' title rows carries.
    struct ShowText {
        var title: String?
        var author: String?

        var text: String {
            [title, author].compactMap { $0 }.filter { !$0.isEmpty }.map(SearchIndexWriter.clean).joined(separator: " — ")
        }
    }

    /// (Re)indexes an episode's title, notes and chapters. Each kind whose
    /// text is as indexed is left alone: FTS5 deletes a row by reading its
    /// text and tokenizing it again, so rewriting unchanged notes (a
    /// refresh meets an episode whose enclosure alone changed) cost twice
    /// their indexing. A kind with nothing indexed is not deleted either:
    /// a DELETE opens a statement savepoint, where FTS5 writes out the rows
    /// it holds, so the `SearchIndexBuilder`'s batch of unindexed episodes
    /// would be a segment an episode again. `isNew`: the episode was just
    /// inserted, so nothing of it can be indexed yet.
    func indexEpisode(_ episode: EpisodeID, _ text: EpisodeText, show: ShowText, isNew: Bool = false) throws(SQLiteError) {
        let title = clean(text.title ?? "")
        let showText = show.text
        let notes = text.notes
        let chapters = text.chapters.filter { !$0.title.isEmpty }.map { (start: $0.start, title: clean($0.title)) }
        let indexedTitle = isNew ? nil : try indexedTitle(episode)
        if indexedTitle?.title != title || indexedTitle?.show != showText {
            if indexedTitle != nil { try remove(episode, kinds: [.title]) }
            try insert(episode, .title, start: nil, column: "title", text: title, show: showText)
        }
        let indexedNotes = isNew ? nil : try indexedNotes(episode)
        if (indexedNotes ?? "") != notes {
            if indexedNotes != nil { try remove(episode, kinds: [.notes]) }
            if !notes.isEmpty { try insert(episode, .notes, start: nil, column: "notes", text: notes) }
        }
        let indexedChapters = isNew ? [] : try indexedChapters(episode)
        if !indexedChapters.elementsEqual(chapters, by: { $0.start == $1.start && $0.title == $1.title }) {
            if !indexedChapters.isEmpty { try remove(episode, kinds: [.chapter]) }
            for chapter in chapters {
                try insert(episode, .chapter, start: chapter.start, column: "chapter", text: chapter.title)
            }
        }
    }

    private func indexedTitle(_ episode: EpisodeID) throws(SQLiteError) -> (title: String, show: String)? {
        try connection.executeHeldWrites()
        return try connection.queryFirst("""
            SELECT h.title, h.show FROM search_places p JOIN search_heads h ON h.rowid = p.id
            WHERE p.episode_id = ? AND p.kind = ?
            """, [episode, SearchPlace.Kind.title.rawValue]) { ($0.optionalString(0) ?? "", $0.optionalString(1) ?? "") }
    }

    private func indexedNotes(_ episode: EpisodeID) throws(SQLiteError) -> String? {
        try connection.executeHeldWrites()
        return try connection.queryFirst("""
            SELECT n.notes FROM search_places p JOIN search_notes n ON n.rowid = p.id
            WHERE p.episode_id = ? AND p.kind = ?
            """, [episode, SearchPlace.Kind.notes.rawValue]) { $0.optionalString(0) ?? "" }
    }

    private func indexedChapters(_ episode: EpisodeID, kind: SearchPlace.Kind = .chapter) throws(SQLiteError)
        -> [(start: TimeInterval, title: String)] {
        try connection.executeHeldWrites()
        return try connection.query("""
            SELECT p.start, h.chapter FROM search_places p JOIN search_heads h ON h.rowid = p.id
            WHERE p.episode_id = ? AND p.kind = ? ORDER BY p.id
            """, [episode, kind.rawValue]) { ($0.double(0), $0.optionalString(1) ?? "") }
    }

    /// (Re)indexes the chapters learned of an episode after its refresh
    /// (a chapters file, the media's own), but those the feed already
    /// gave, which `indexEpisode` keeps. Returns whether the index changed:
    /// the same chapters again, as each play of the episode finds them,
    /// write nothing.
    func indexLearnedChapters(_ episode: EpisodeID, _ chapters: [(start: TimeInterval, title: String)]) throws(SQLiteError)
        -> Bool {
        let fromFeed = try connection.query("SELECT start, title FROM chapters WHERE episode_id = ?", [episode]) {
            ($0.double(0), $0.optionalString(1) ?? "")
        }
        let learned = chapters.map { (start: $0.start, title: clean($0.title)) }.filter { chapter in
            !chapter.title.isEmpty
                && !fromFeed.contains { abs($0.0 - chapter.start) < 0.5 && clean($0.1) == chapter.title }
        }
        let indexed = try indexedChapters(episode, kind: .learnedChapter)
        guard !indexed.elementsEqual(learned, by: { $0.start == $1.start && $0.title == $1.title }) else { return false }
        try remove(episode, kinds: [.learnedChapter])
        for chapter in learned {
            try insert(episode, .learnedChapter, start: chapter.start, column: "chapter", text: chapter.title)
        }
        return true
    }

    /// (Re)indexes an episode's transcript, one row per cue.
    func indexTranscript(_ episode: EpisodeID, _ transcript: Transcript) throws(SQLiteError) {
        try remove(episode, kinds: [.transcript])
        for cue in transcript.cues {
            let text = clean(cue.speaker.map { $0 + ": " + cue.text } ?? cue.text)
            guard !text.isEmpty else { continue }
            try insert(episode, .transcript, start: transcript.isTimed ? cue.start : nil, column: "transcript", text: text)
        }
    }

    /// Rewrites the show's words on each of its episodes' title rows, after its title or author changed.
    func reindexShowText(_ showID: ShowID, _ show: ShowText) throws(SQLiteError) {
        try connection.executeHeldWrites()
        try connection.execute("""
            UPDATE search_heads SET show = ? WHERE rowid IN (
                SELECT p.id FROM search_places p JOIN episodes e ON e.id = p.episode_id WHERE e.show_id = ? AND p.kind = ?)
            """, [show.text, showID, SearchPlace.Kind.title.rawValue])
    }

    /// Removes the index rows of every episode of a show; call before the show's rows go.
    func removeShow(_ show: ShowID) throws(SQLiteError) {
        try connection.executeHeldWrites()
        for table in Self.tables {
            try connection.execute("""
                DELETE FROM \(table) WHERE rowid IN (
                    SELECT p.id FROM search_places p JOIN episodes e ON e.id = p.episode_id WHERE e.show_id = ?)
                """, [show])
        }
        try connection.execute("""
            DELETE FROM search_places WHERE episode_id IN (SELECT id FROM episodes WHERE show_id = ?)
            """, [show])
    }

    private func remove(_ episode: EpisodeID, kinds: [SearchPlace.Kind]) throws(SQLiteError) {
        try connection.executeHeldWrites()
        for kind in kinds {
            try connection.execute("""
                DELETE FROM \(kind.table) WHERE rowid IN (SELECT id FROM search_places WHERE episode_id = ? AND kind = ?)
                """, [episode, kind.rawValue])
            try connection.execute("DELETE FROM search_places WHERE episode_id = ? AND kind = ?", [episode, kind.rawValue])
        }
    }

    private func insert(_ episode: EpisodeID, _ kind: SearchPlace.Kind, start: TimeInterval?, column: String,
                        text: String, show: String? = nil) throws(SQLiteError) {
        try connection.execute("INSERT INTO search_places (episode_id, kind, start) VALUES (?, ?, ?)",
                               [episode, kind.rawValue, start])
        let id = connection.lastInsertedRowID
        // Table and column names come from this file, never from input.
        if let show {
            try connection.executeAtCommit("INSERT INTO \(kind.table) (rowid, \(column), show) VALUES (?, ?, ?)",
                                           [id, text, show])
        } else {
            try connection.executeAtCommit("INSERT INTO \(kind.table) (rowid, \(column)) VALUES (?, ?)", [id, text])
        }
    }

    /// The FTS5 tables, one per group of kinds.
    static let tables = ["search_heads", "search_notes", "search_cues"]

    private func clean(_ text: String) -> String { Self.clean(text) }

    /// Feed text as the index keeps it: HTML reduced to text.
    static func plain(_ text: String) -> String {
        clean(HTMLText.looksLikeHTML(text) ? HTMLText.plainText(fromHTML: text) : HTMLText.decodingEntities(text))
    }

    /// Control characters become spaces: snippet() marks matches with two
    /// of them (`SearchSnippet.openMark`), which must mean nothing else.
    static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.value < 0x20 && $0 != "\n" ? " " : $0
        }))
    }
}
