import Foundation

/// What reading tags has learnt about one input, shared by every tag read
/// from it (`HTMLText`, `SafeMarkup`), so that the reading stays linear.
///
/// Read naively, a `<` with no `>` after it costs a look to the end of the
/// input, and `<a <a <a …` pays that for every `<`. So the next `>` is found
/// once and remembered (none after it: every later `<` is text at once); a
/// tag may be at most `maximumLength` bytes long; and where a reading gave up
/// is marked, by place and by the reader's state there, so that a later
/// reading arriving at the same place in the same state (it would read the
/// same bytes the same way) gives up at once.
struct TagScan {
    /// Longer than any real tag: a link with a long address and a title.
    static let maximumLength = 2048

    let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes looked at while reading tags: tests hold it linear in the input.
    var steps = 0
    /// The first `>` at or after the last place asked about; `bytes.count` when there is none.
    private var nextClose = -1
    /// Per byte, a bit per reader state in which a reading gave up there;
    /// allocated when the first reading gives up, which ordinary text never does.
    private var marks: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Where reading a tag that starts at `start` must stop, or `nil` if no
    /// `>` is near enough for it to end at all.
    mutating func limit(forTagAt start: Int) -> Int? {
        if nextClose < start {
            // Most tags are short: their `>` is found before a call to memchr would have begun.
            let nearEnd = min(bytes.count, start + 16)
            var i = start
            while i < nearEnd, bytes[i] != UInt8(ascii: ">") { i += 1 }
            if i < nearEnd {
                nextClose = i
            } else {
                let from = UnsafeRawPointer(bytes.baseAddress! + i)
                nextClose = memchr(from, Int32(UInt8(ascii: ">")), bytes.count - i)
                    .map { i + from.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
            }
            steps += nextClose - start
        }
        guard nextClose < bytes.count, nextClose - start < Self.maximumLength else { return nil }
        return min(bytes.count, start + Self.maximumLength)
    }

    /// Whether a reading may go on at `index` in `state` (below 8): false
    /// where one gave up before in that state.
    mutating func proceeds(at index: Int, state: UInt8) -> Bool {
        steps += 1
        guard !marks.isEmpty else { return true }
        let bit: UInt8 = 1 << state
        if marks[index] & bit != 0 { return false }
        // Marked as it goes: a reading that ends well ends at a `>` that the
        // next reading starts after, so only readings that gave up are consulted.
        marks[index] |= bit
        return true
    }

    /// A reading found no end within its limit.
    mutating func gaveUp() {
        if marks.isEmpty { marks = [UInt8](repeating: 0, count: bytes.count) }
    }
}
