/// Whitespace clean-up for text read from feeds, where generators indent,
/// wrap and pad freely. Whitespace means Unicode White_Space (so a no-break
/// space collapses too), as in podcastparser's `\s`.
enum FeedText {
    /// Runs of whitespace become one space; ends trimmed. For titles, names, one-line values.
    static func squashingWhitespace(_ text: String) -> String {
        squash(text, keepingNewlines: false)
    }

    /// Like `squashingWhitespace`, but line breaks survive: descriptions written as
    /// paragraphs keep them.
    static func squashingWhitespaceKeepingNewlines(_ text: String) -> String {
        squash(text, keepingNewlines: true)
    }

    /// Ends trimmed, inside untouched: URLs, identifiers, HTML.
    static func trimmed(_ text: String) -> String {
        // Most values have visible ASCII at both ends: no Unicode property look-ups then.
        // Read from the buffer: the `utf8` view's `last` steps through the generic collection code.
        var copy = text
        let isVisibleAtEnds = copy.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
        }
        if isVisibleAtEnds { return text }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) {
            return text
        }
        return String(scalars[first...last])
    }

    /// `nil` for text that is empty once trimmed.
    static func nonEmpty(_ text: String) -> String? {
        let trimmed = trimmed(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func squash(_ text: String, keepingNewlines: Bool) -> String {
        if isAlreadySquashed(text) { return text }
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if keepingNewlines && (scalar == "\n" || scalar == "\r") {
                // podcastparser's `[^\S\r\n]+`: the spaces around a newline stay as one space.
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            } else if scalar.properties.isWhitespace {
                pendingSpace = true
            } else {
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        var string = String(result)
        if keepingNewlines {
            string = trimmed(string)
        }
        return string
    }

    /// The common case, checked on bytes: printable ASCII, single spaces, no padding.
    private static func isAlreadySquashed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var previousWasSpace = true
            for byte in bytes {
                if byte == 0x20 {
                    if previousWasSpace { return false }
                    previousWasSpace = true
                } else if byte < 0x21 || byte > 0x7E {
                    return false
                } else {
                    previousWasSpace = false
                }
            }
            return !previousWasSpace || bytes.isEmpty
        }
    }
}

extension FeedText {
    /// A one-line value (title, name): HTML reduced to text, leftover entities
    /// ("Rock &amp;amp; Roll" escaped twice) decoded, whitespace squashed; `nil` if empty.
    static func line(_ raw: String) -> String? {
        let text = HTMLText.looksLikeHTML(raw) ? HTMLText.plainText(fromHTML: raw) : HTMLText.decodingEntities(raw)
        let squashed = squashingWhitespace(text)
        return squashed.isEmpty ? nil : squashed
    }

    /// A description: HTML reduced to text with its paragraphs, plain text with its
    /// line breaks kept and entities decoded; `nil` if empty.
    static func paragraphs(_ raw: String) -> String? {
        let text = HTMLText.looksLikeHTML(raw)
            ? HTMLText.plainText(fromHTML: raw)
            : squashingWhitespaceKeepingNewlines(HTMLText.decodingEntities(raw))
        return text.isEmpty ? nil : text
    }
}
