import Foundation

/// Reads `itunes:duration` and Podlove chapter starts (RFC 2326 Normal Play Time):
/// "3600", "61.5", "01:02", "1:02:03", "1:02:03.5". Minutes and seconds after a
/// colon take one or two digits, as podcastparser accepts ("25:3:30").
/// Fractions are kept, unlike podcastparser which truncates to whole seconds.
public enum FeedDurationParser {
    /// Seconds, or `nil` for empty, negative or unreadable text ("45 min", "1,5").
    public static func seconds(from text: String) -> TimeInterval? {
        var text = text
        return text.withUTF8 { bytes -> TimeInterval? in
            var start = 0
            var end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            guard start < end else { return nil }

            // The fields before the last, folded together as each ends (hours into
            // minutes), and how many: no array, which would allocate per duration.
            var whole = 0
            var fieldCount = 0
            var current = 0
            var digits = 0
            var fraction = 0.0
            var index = start
            while index < end {
                let c = bytes[index]
                if c >= 0x30 && c <= 0x39 {
                    digits += 1
                    // Fields past the first are minutes or seconds: at most two digits.
                    guard digits <= (fieldCount == 0 ? 12 : 2) else { return nil }
                    current = current * 10 + Int(c - 0x30)
                } else if c == UInt8(ascii: ":") {
                    guard digits > 0, fieldCount < 2 else { return nil }
                    whole = whole * 60 + current
                    fieldCount += 1
                    current = 0
                    digits = 0
                } else if c == UInt8(ascii: ".") {
                    guard digits > 0, index + 1 < end else { return nil }
                    var scale = 0.1
                    index += 1
                    while index < end {
                        let f = bytes[index]
                        guard f >= 0x30 && f <= 0x39 else { return nil }
                        fraction += Double(f - 0x30) * scale
                        scale /= 10
                        index += 1
                    }
                    break
                } else {
                    return nil
                }
                index += 1
            }
            guard digits > 0 else { return nil }
            return TimeInterval(whole * 60 + current) + fraction
        }
    }

    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }
}
