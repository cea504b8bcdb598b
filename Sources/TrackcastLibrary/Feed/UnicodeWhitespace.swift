/// Unicode White_Space (what Python's `\s` matches in podcastparser) read
/// straight from UTF-8, without a Unicode property look-up per scalar: ASCII
/// by a table, and the few others by their lead bytes, all of which are
/// C2, E1, E2 or E3. Indexes must fall on a scalar's first byte of valid UTF-8.
enum UnicodeWhitespace {
    /// The byte length of the whitespace scalar starting at `i`, or 0 when the scalar there is not whitespace.
    static func length(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = bytes[i]
        if lead < 0x80 { return lead < 64 && (asciiWhitespace >> lead) & 1 != 0 ? 1 : 0 }
        switch lead {
        case 0xC2:
            // U+0085 NEL, U+00A0 no-break space.
            let second = bytes[i + 1]
            return second == 0x85 || second == 0xA0 ? 2 : 0
        case 0xE1:
            // U+1680 Ogham space mark.
            return bytes[i + 1] == 0x9A && bytes[i + 2] == 0x80 ? 3 : 0
        case 0xE2:
            let (second, third) = (bytes[i + 1], bytes[i + 2])
            if second == 0x80 {
                // U+2000–200A spaces, U+2028 line and U+2029 paragraph separators, U+202F narrow no-break space.
                return third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
            }
            // U+205F medium mathematical space.
            return second == 0x81 && third == 0x9F ? 3 : 0
        case 0xE3:
            // U+3000 ideographic space.
            return bytes[i + 1] == 0x80 && bytes[i + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// Whether `byte` may start whitespace (or another control): bytes of ASCII
    /// text past the space and the lead bytes of every other scalar can be
    /// copied without asking `length`, which is most of the bytes of show notes in
    /// Greek, Cyrillic or Japanese.
    @inline(__always)
    static func mayStartSpaceOrControl(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0xC2 || (byte >= 0xE1 && byte <= 0xE3)
    }

    /// Whether any byte of `word` is a control, DEL or a lead byte that may
    /// start whitespace other than the space: `mayStartSpaceOrControl` for
    /// eight bytes at once, spaces aside (the bit tricks for a byte below n
    /// and for a zero byte, exact as yes-or-no answers).
    @inline(__always)
    static func mayHoldOtherSpaceOrControl(_ word: UInt64) -> Bool {
        let hasControl = (word &- ones &* 0x20) & ~word & highs != 0
        func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        return hasControl || hasZeroByte(word ^ (ones &* 0x7F)) || hasZeroByte(word ^ (ones &* 0xC2))
            || hasZeroByte(word ^ (ones &* 0xE1)) || hasZeroByte(word ^ (ones &* 0xE2)) || hasZeroByte(word ^ (ones &* 0xE3))
    }

    /// 0x80 in each byte of `word` that is a space, 0 in the others (exactly,
    /// unlike the zero-byte trick above, whose marks may spill past a zero byte).
    @inline(__always)
    static func spaces(in word: UInt64) -> UInt64 {
        let v = word ^ (ones &* 0x20)
        let lows = ~highs
        return ~(((v & lows) &+ lows) | v | lows)
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Where the whitespace that starts at `start` ends.
    static func startTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            let length = length(bytes, at: i)
            if length == 0 { break }
            i += length
        }
        return i
    }

    /// The index just past the last scalar that is not whitespace in `bytes[start..<end]`; `start` if there is none.
    static func endTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var end = end
        while end > start {
            var lead = end - 1
            while lead > start, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            guard length(bytes, at: lead) > 0 else { return end }
            end = lead
        }
        return start
    }

    /// Tab, line feed, vertical tab, form feed and carriage return (bits 9–13), space (bit 32).
    private static let asciiWhitespace: UInt64 = 0x1_0000_3E00
}
