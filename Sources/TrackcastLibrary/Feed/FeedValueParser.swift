/// The small typed values of feeds, read leniently: whitespace around them is
/// ignored, and anything unreadable is `nil` rather than an error.
enum FeedValueParser {
    /// iTunes-style flags: yes/true/explicit are `true`, no/false/clean are `false`.
    static func flag(_ text: String) -> Bool? {
        switch FeedText.trimmed(text).lowercased() {
        case "yes", "true", "explicit": return true
        case "no", "false", "clean": return false
        default: return nil
        }
    }

    /// Season and episode numbers: positive integers only, as podcastparser and
    /// Apple's spec ("a non-zero integer") have it.
    static func positiveInteger(_ text: String) -> Int? {
        guard let value = Int(FeedText.trimmed(text)), value > 0 else { return nil }
        return value
    }

    /// Byte counts; feeds write 0 or -1 for "unknown".
    static func length(_ text: String?) -> Int64? {
        guard let text, let value = Int64(FeedText.trimmed(text)), value > 0 else { return nil }
        return value
    }

    /// A MIME type needs a slash; "audio" alone or "mp3" says nothing reliable.
    static func mimeType(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = FeedText.trimmed(text)
        return trimmed.utf8.contains(UInt8(ascii: "/")) ? trimmed.lowercased() : nil
    }

    static func number(_ text: String?) -> Double? {
        guard let text, let value = Double(FeedText.trimmed(text)), value.isFinite, value >= 0 else { return nil }
        return value
    }
}
