/// A few words around a match, as pieces of plain feed text, the matched
/// words marked. Feed text is never markup: each way of showing a snippet
/// escapes the pieces itself.
public struct SearchSnippet: Sendable, Equatable {
    public struct Piece: Sendable, Equatable {
        public let text: String
        public let isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public let pieces: [Piece]

    public init(pieces: [Piece]) {
        self.pieces = pieces
    }

    /// The characters SQLite's snippet() is asked to put around matches:
    /// control characters, which `SearchIndexWriter` keeps out of indexed text.
    static let openMark: Character = "\u{2}"
    static let closeMark: Character = "\u{3}"

    /// Splits snippet() output at its marks.
    init(marked: String) {
        var pieces: [Piece] = []
        var current = ""
        var inMatch = false
        for character in marked {
            if character == Self.openMark || character == Self.closeMark {
                if !current.isEmpty { pieces.append(Piece(text: current, isMatch: inMatch)) }
                current = ""
                inMatch = character == Self.openMark
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { pieces.append(Piece(text: current, isMatch: inMatch)) }
        self.init(pieces: pieces)
    }

    /// The text alone.
    public var text: String { pieces.map(\.text).joined() }

    /// The text with each match between `open` and `close`, e.g. `[` and `]` for a terminal.
    public func marked(open: String, close: String) -> String {
        pieces.map { $0.isMatch ? open + $0.text + close : $0.text }.joined()
    }

    /// Pango markup: the text escaped (`SafeMarkup.escaped`), matches in bold.
    public var markup: String {
        pieces.map { $0.isMatch ? "<b>" + SafeMarkup.escaped($0.text) + "</b>" : SafeMarkup.escaped($0.text) }.joined()
    }
}
