import Foundation

/// Writes the search index's rows (`search_places` and the FTS5 table
/// `search_text`, see `LibrarySchema.version6`) for episodes, inside the
/// caller's transaction, so an episode and its index rows commit together.
///
/// Every write first removes what the index held for the same episode and
/// kinds, so indexing an episode twice (a refresh meeting the
/// `SearchIndexBuilder`) never duplicates a row.
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

    /// (Re)indexes an episode's title, notes and chapters.
    func indexEpisode(_ episode: EpisodeID, _ text: EpisodeText, show: ShowText) throws(SQLiteError) {
        try remove(episode, kinds: [.title, .notes, .chapter])
        try insert(episode, .title, start: nil, column: "title", text: clean(text.title ?? ""),
                   show: show.text)
        let notes = text.notes
        if !notes.isEmpty {
            try insert(episode, .notes, start: nil, column: "notes", text: notes)
        }
        for chapter in text.chapters where !chapter.title.isEmpty {
            try insert(episode, .chapter, start: chapter.start, column: "chapter", text: clean(chapter.title))
        }
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
        try connection.execute("""
            UPDATE search_text SET show = ? WHERE rowid IN (
                SELECT p.id FROM search_places p JOIN episodes e ON e.id = p.episode_id WHERE e.show_id = ? AND p.kind = ?)
            """, [show.text, showID, SearchPlace.Kind.title.rawValue])
    }

    /// Removes the index rows of every episode of a show; call before the show's rows go.
    func removeShow(_ show: ShowID) throws(SQLiteError) {
        try connection.execute("""
            DELETE FROM search_text WHERE rowid IN (
                SELECT p.id FROM search_places p JOIN episodes e ON e.id = p.episode_id WHERE e.show_id = ?)
            """, [show])
        try connection.execute("""
            DELETE FROM search_places WHERE episode_id IN (SELECT id FROM episodes WHERE show_id = ?)
            """, [show])
    }

    private func remove(_ episode: EpisodeID, kinds: [SearchPlace.Kind]) throws(SQLiteError) {
        for kind in kinds {
            try connection.execute("""
                DELETE FROM search_text WHERE rowid IN (SELECT id FROM search_places WHERE episode_id = ? AND kind = ?)
                """, [episode, kind.rawValue])
            try connection.execute("DELETE FROM search_places WHERE episode_id = ? AND kind = ?", [episode, kind.rawValue])
        }
    }

    private func insert(_ episode: EpisodeID, _ kind: SearchPlace.Kind, start: TimeInterval?, column: String,
                        text: String, show: String? = nil) throws(SQLiteError) {
        try connection.execute("INSERT INTO search_places (episode_id, kind, start) VALUES (?, ?, ?)",
                               [episode, kind.rawValue, start])
        let id = connection.lastInsertedRowID
        // Column names come from this file, never from input.
        if let show {
            try connection.execute("INSERT INTO search_text (rowid, \(column), show) VALUES (?, ?, ?)", [id, text, show])
        } else {
            try connection.execute("INSERT INTO search_text (rowid, \(column)) VALUES (?, ?)", [id, text])
        }
    }

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
