/// What a person typed, as an FTS5 query that means only "these words".
///
/// FTS5's query language gives meaning to `"`, `*`, `-`, `:`, `^`, `+`,
/// parentheses and the words AND, OR, NOT and NEAR. Typed text is none of
/// that: it is cut into words where FTS5's unicode61 tokenizer would cut it
/// (at anything not a letter, digit or mark), and each word goes in as a
/// quoted string, so nothing typed can be an operator or a syntax error.
/// The last word is a prefix while it is still being typed (no space after
/// it), so results follow each keystroke, from its second letter: FTS5
/// keeps prefix indexes of two and three letters, and a one-letter prefix
/// would gather the postings of a twentieth of every word there is. A
/// first letter typed after other words waits for the next one; alone, it
/// is a word of its own.
public struct SearchQuery: Sendable, Equatable {
    public let words: [String]
    public let lastIsPrefix: Bool

    public init(_ text: String) {
        var words: [String] = []
        var word = ""
        for scalar in text.unicodeScalars {
            if Self.isWordScalar(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        self.words = words
        lastIsPrefix = !word.isEmpty
    }

    public var isEmpty: Bool { words.isEmpty }

    /// The MATCH expression: quoted words, all required, the last one a prefix if typing.
    var expression: String { phrases.joined(separator: " ") }

    /// Each word of `expression` as an FTS5 phrase of its own.
    var phrases: [String] {
        var words = words
        var lastIsPrefix = lastIsPrefix
        if lastIsPrefix, let last = words.last, last.count < 2 {
            if words.count > 1 { words.removeLast() }
            lastIsPrefix = false
        }
        return words.enumerated().map { offset, word in
            // Words hold no quote (see isWordScalar); doubling them anyway keeps this safe on its own.
            let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return offset == words.count - 1 && lastIsPrefix ? quoted + " *" : quoted
        }
    }

    /// unicode61's token characters: letters, numbers, marks and private use.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark, .privateUse:
            true
        default:
            false
        }
    }
}
