import Foundation

/// Where in an episode a search found its words.
public enum SearchPlace: Sendable, Equatable {
    /// The episode's title, or its show's title or author.
    case title
    /// The show notes (subtitle, description, content), as plain text.
    case notes
    /// A chapter's title; the chapter starts `start` seconds in.
    case chapter(start: TimeInterval)
    /// A transcript's cue; `start` is nil for untimed (HTML) transcripts.
    case transcript(start: TimeInterval?)

    /// `title`, `notes`, `chapter`, `transcript`: the CLI's and the D-Bus provider's word for it.
    public var name: String {
        switch self {
        case .title: "title"
        case .notes: "notes"
        case .chapter: "chapter"
        case .transcript: "transcript"
        }
    }

    /// Seconds into the episode, for chapters and timed cues.
    public var time: TimeInterval? {
        switch self {
        case .title, .notes: nil
        case .chapter(let start): start
        case .transcript(let start): start
        }
    }

    /// The `kind` column of `search_places`.
    enum Kind: Int {
        case title = 0, notes = 1, chapter = 2, transcript = 3
        /// A chapter learned after the refresh, from a chapters file or the
        /// media: kept apart from the feed's, which a refresh rewrites.
        case learnedChapter = 4

        /// The FTS5 table that holds this kind's text (`LibrarySchema.version7`).
        var table: String {
            switch self {
            case .title, .chapter, .learnedChapter: "search_heads"
            case .notes: "search_notes"
            case .transcript: "search_cues"
            }
        }
    }

    init?(kind: Int, start: TimeInterval?) {
        switch Kind(rawValue: kind) {
        case .title: self = .title
        case .notes: self = .notes
        case .chapter, .learnedChapter: self = .chapter(start: start ?? 0)
        case .transcript: self = .transcript(start: start)
        case nil: return nil
        }
    }
}
