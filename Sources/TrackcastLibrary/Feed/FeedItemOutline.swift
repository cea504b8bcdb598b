import Foundation

/// Where a feed's items lie in its bytes, as `XMLByteReader` read them: what
/// a refresh needs to parse only the items a feed gained at its top
/// (`FeedDocumentLayout`).
struct FeedItemOutline: Sendable, Equatable {
    /// The channel (RSS `channel`, or Atom's `feed`), from its start tag's `<`
    /// to just past its end tag.
    var channel: Range<Int>
    /// Each item, from its `<` to just past its end, in document order; never empty.
    var items: [Range<Int>]
    /// Where the channel's other children start: a field among the items is
    /// read wherever it stands, so a tail that holds one cannot be skipped.
    var fieldStarts: [Int]

    /// From the first item's start to the last one's end.
    var itemSpan: Range<Int> { items[0].lowerBound..<items[items.count - 1].upperBound }

    /// Whether no channel field starts in `range`.
    func holdsNoField(in range: Range<Int>) -> Bool {
        !fieldStarts.contains { range.contains($0) }
    }

    /// The same places in `original`, the bytes `FeedInputDecoder` made
    /// `decoded` of (transcoded from a legacy charset, or repaired): each
    /// place is a tag's `<`, or just past its `>`, so it is found as the same
    /// `<` or `>` counted from the start. `nil` unless counting is sure:
    /// the original writes `<` and `>` as those single bytes and nothing
    /// else as them (equally many of each in both; no NUL bytes, which
    /// UTF-16 and UTF-32 have).
    func mapped(from decoded: Data, to original: Data) -> FeedItemOutline? {
        decoded.withUnsafeBytes { decoded in
            original.withUnsafeBytes { original -> FeedItemOutline? in
                guard let base = original.baseAddress, memchr(base, 0, original.count) == nil,
                      let starts = Self.correspondingOffsets(
                          of: [channel.lowerBound] + items.map(\.lowerBound) + fieldStarts, byte: UInt8(ascii: "<"),
                          in: decoded, original),
                      let ends = Self.correspondingOffsets(
                          of: [channel.upperBound - 1] + items.map { $0.upperBound - 1 }, byte: UInt8(ascii: ">"),
                          in: decoded, original)
                else { return nil }
                return FeedItemOutline(channel: starts[0]..<(ends[0] + 1),
                                       items: (0..<items.count).map { starts[1 + $0]..<(ends[1 + $0] + 1) },
                                       fieldStarts: Array(starts.dropFirst(1 + items.count)))
            }
        }
    }

    /// For each of `offsets` (where `decoded` holds `byte`), the offset of
    /// the same occurrence of `byte` in `original`; `nil` if either holds
    /// `byte` more often than the other.
    private static func correspondingOffsets(of offsets: [Int], byte: UInt8, in decoded: UnsafeRawBufferPointer,
                                             _ original: UnsafeRawBufferPointer) -> [Int]? {
        func next(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
            guard start < buffer.count, let base = buffer.baseAddress,
                  let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        let wanted = offsets.sorted()
        var found: [Int: Int] = [:]
        var wantedIndex = 0
        var inDecoded = next(in: decoded, from: 0), inOriginal = next(in: original, from: 0)
        while let d = inDecoded {
            guard let o = inOriginal else { return nil }
            while wantedIndex < wanted.count, wanted[wantedIndex] == d {
                found[d] = o
                wantedIndex += 1
            }
            inDecoded = next(in: decoded, from: d + 1)
            inOriginal = next(in: original, from: o + 1)
        }
        guard inOriginal == nil, wantedIndex == wanted.count else { return nil }
        return offsets.map { found[$0]! }
    }
}

/// Builds a `FeedItemOutline` from the parser's element events.
struct FeedItemOutliner {
    private var channel: (start: Int, end: Int?)?
    private var channelCount = 0
    private var items: [Range<Int>] = []
    private var fieldStarts: [Int] = []

    /// `element` starts at `offset`, inside `parent`.
    mutating func started(_ element: FeedElement, in parent: FeedElement, at offset: Int) {
        switch element {
        case .channel, .atomFeed:
            channelCount += 1
            channel = (offset, nil)
        case .item where parent.holdsItems, .entry where parent.holdsItems:
            items.append(offset..<offset)
        default:
            if parent.holdsItems { fieldStarts.append(offset) }
        }
    }

    /// `element` ended just before `offset`, inside `parent`.
    mutating func ended(_ element: FeedElement, in parent: FeedElement, at offset: Int) {
        switch element {
        case .channel, .atomFeed:
            channel?.end = offset
        case .item where parent.holdsItems, .entry where parent.holdsItems:
            items[items.count - 1] = items[items.count - 1].lowerBound..<offset
        default:
            break
        }
    }

    /// `nil` for a feed without items, or with more than one channel.
    var outline: FeedItemOutline? {
        guard channelCount == 1, let channel, let channelEnd = channel.end, !items.isEmpty else { return nil }
        return FeedItemOutline(channel: channel.start..<channelEnd, items: items, fieldStarts: fieldStarts)
    }
}

private extension FeedElement {
    var holdsItems: Bool { self == .channel || self == .atomFeed }
}
