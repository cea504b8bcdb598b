/// Finds where a control character may start in UTF-8, eight bytes a step:
/// feed text and the CLI's output are megabytes that almost never hold one,
/// and a check per byte was a noticeable part of parsing and printing a feed.
/// Callers judge each candidate exactly (which controls they keep differs).
/// Inlinable: called across modules once per line of the CLI's output.
public enum ControlByteScan {
    /// The index of the first byte at or after `start` that is below 0x20, DEL
    /// (0x7F) or 0xC2 (the lead byte of every C1 control, U+0080–U+009F);
    /// `bytes.count` if there is none.
    @inlinable
    public static func firstCandidate(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var i = start
        while i + 8 <= bytes.count, !mayHoldCandidate(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
            i += 8
        }
        while i < bytes.count, !isCandidate(bytes[i]) { i += 1 }
        return i
    }

    @inlinable @inline(__always)
    static func isCandidate(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2
    }

    /// Whether any byte of `word` is a candidate: the bit tricks for a byte
    /// below n and for a zero byte, exact as yes-or-no answers.
    @inlinable @inline(__always)
    static func mayHoldCandidate(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        let hasBelowSpace = (word &- ones &* 0x20) & ~word & highs != 0
        return hasBelowSpace || hasZeroByte(word ^ (ones &* 0x7F)) || hasZeroByte(word ^ (ones &* 0xC2))
    }
}
