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
        var copy = text
        let (start, end) = copy.withUTF8 { bytes in
            let start = UnicodeWhitespace.startTrimmed(bytes, from: 0)
            return (start, UnicodeWhitespace.endTrimmed(bytes, from: start, to: bytes.count))
        }
        if start == 0 && end == copy.utf8.count { return text }
        // A slice of the string, not new bytes: its UTF-8 is not checked again
        // (show notes end in a line break, and checking them was a third of making them).
        let utf8 = copy.utf8
        return String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]))
    }

    /// Whether `text` is nothing but whitespace: empty once squashed or trimmed.
    static func isBlank(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in UnicodeWhitespace.startTrimmed(bytes, from: 0) == bytes.count }
    }

    /// `nil` for text that is empty once trimmed.
    static func nonEmpty(_ text: String) -> String? {
        let trimmed = trimmed(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func squash(_ text: String, keepingNewlines: Bool) -> String {
        if isAlreadySquashed(text) { return text }
        var text = text
        return text.withUTF8 { bytes in
            // Never longer than the input: each run of whitespace becomes at most one space.
            String(unsafeUninitializedCapacity: bytes.count) { out in
                var count = 0
                var pendingSpace = false
                var i = 0
                while i < bytes.count {
                    let byte = bytes[i]
                    if keepingNewlines && (byte == 0x0A || byte == 0x0D) {
                        // podcastparser's `[^\S\r\n]+`: the spaces around a newline stay as one space.
                        if pendingSpace && count > 0 { out[count] = 0x20; count += 1 }
                        pendingSpace = false
                        out[count] = byte
                        count += 1
                        i += 1
                        continue
                    }
                    let space = UnicodeWhitespace.length(bytes, at: i)
                    if space > 0 {
                        pendingSpace = true
                        i += space
                        continue
                    }
                    if pendingSpace && count > 0 { out[count] = 0x20; count += 1 }
                    pendingSpace = false
                    // The scalar whole; then the rest of a run that holds no whitespace in one go.
                    repeat {
                        out[count] = bytes[i]
                        count += 1
                        i += 1
                    } while i < bytes.count && !UnicodeWhitespace.mayStartSpaceOrControl(bytes[i])
                }
                guard keepingNewlines else { return count }
                // Only spaces and line breaks are left as whitespace: trim those.
                var start = 0
                while start < count, out[start] == 0x20 || out[start] == 0x0A || out[start] == 0x0D { start += 1 }
                while count > start, out[count - 1] == 0x20 || out[count - 1] == 0x0A || out[count - 1] == 0x0D { count -= 1 }
                if start > 0 {
                    for k in start..<count { out[k - start] = out[k] }
                }
                return count - start
            }
        }
    }

    /// The common case, checked on bytes: no whitespace but single spaces
    /// between words, no padding, no other control byte. Titles in other
    /// scripts count too (their scalars are copied as they are by `squash`):
    /// once they were made anew, and their UTF-8 checked again, each time.
    private static func isAlreadySquashed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return true }
            var previousWasSpace = true
            var i = 0
            while i < bytes.count {
                // Eight bytes a step while they hold only single spaces between other
                // bytes that start no whitespace (words in any script, that is).
                if i + 8 <= bytes.count {
                    // Little-endian: the first byte is the lowest, so a space's next byte is 8 bits up.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                    let spaces = UnicodeWhitespace.spaces(in: word)
                    if !UnicodeWhitespace.mayHoldOtherSpaceOrControl(word), spaces & (spaces << 8) == 0,
                       !(previousWasSpace && spaces & 0x80 != 0) {
                        previousWasSpace = spaces >> 63 != 0
                        i += 8
                        continue
                    }
                }
                let byte = bytes[i]
                i += 1
                if byte == 0x20 {
                    if previousWasSpace { return false }
                    previousWasSpace = true
                } else if byte < 0x21 || byte == 0x7F {
                    return false
                } else {
                    // A continuation byte is no scalar's start: `length` answers 0 there.
                    if UnicodeWhitespace.mayStartSpaceOrControl(byte) && UnicodeWhitespace.length(bytes, at: i - 1) > 0 { return false }
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
