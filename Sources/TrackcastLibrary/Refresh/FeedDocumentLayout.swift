import Foundation

/// What a refresh keeps of the feed document it applied, to recognise the
/// next one without parsing it whole.
///
/// Many podcast hosts send neither an ETag nor a Last-Modified, so every
/// refresh brings the whole feed again; and a feed that did change mostly
/// gained an item or two at its top, above items byte for byte as before,
/// and perhaps lost its oldest ones (a feed that keeps its newest N), while
/// its channel's fields may change too (a `lastBuildDate` mostly does). The
/// layout cuts the document into its *head* (up to the first item), each
/// item (with the bytes up to the next one, its gap) and its *end* (after
/// the last item: closing tags, perhaps fields), with a digest of each
/// (`FeedDocumentDigest`), and of the head's *prologue* (up to the end of
/// the channel's start tag: the declaration, the namespaces, `xml:base`).
/// The next document is then
/// - the same: nothing to parse, as a 304;
/// - the same prologue and end, and between them new bytes (the channel's
///   fields, new items) above the first items as they were, down to one of
///   the last few (the ones below it gone): parsing the new bytes between
///   prologue and end alone gives the channel and the new items exactly as
///   parsing it all would, since the old items read the same (the same
///   bytes in the same channel, with the same address and the same app) and
///   the store keeps episodes that are not in a feed it applies;
/// - anything else: parsed whole.
///
/// The cuts are made only where the parser vouched for them
/// (`FeedItemOutline`): one channel, open around the items, and no channel
/// field among them (a field would be missed, read from the old items). A
/// document without such an outline is all head.
public struct FeedDocumentLayout: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var length: Int
        public var digest: Int64
        /// The bytes from the item's end to the next item's start; none after the last.
        public var gapLength: Int
        public var gapDigest: Int64
    }

    public let headLength: Int
    public let headDigest: Int64
    public let prologueLength: Int
    public let prologueDigest: Int64
    public let items: [Item]
    public let endLength: Int
    public let endDigest: Int64

    /// How many of the oldest items a feed may have lost and still be read in part.
    static let maxDropped = 16

    public init(headLength: Int, headDigest: Int64, prologueLength: Int, prologueDigest: Int64, items: [Item],
                endLength: Int, endDigest: Int64) {
        self.headLength = headLength
        self.headDigest = headDigest
        self.prologueLength = prologueLength
        self.prologueDigest = prologueDigest
        self.items = items
        self.endLength = endLength
        self.endDigest = endDigest
    }

    /// How `data` compares with the document this layout was made of.
    enum Change {
        case same
        /// `data` is that document's prologue, then `added` (new fields and
        /// items), then its first `kept` items as they were, then its end:
        /// `partial` is `data` less the old items, `added` the same range in both.
        case itemsAdded(partial: Data, added: Range<Int>, kept: Int)
        case other
    }

    /// The layout of `data`, cut where `outline` allows.
    init(of data: Data, outline: FeedItemOutline?, digest: FeedDocumentDigest) {
        guard let outline, outline.holdsNoField(in: outline.itemSpan),
              outline.channel.lowerBound < outline.itemSpan.lowerBound,
              outline.channel.upperBound <= data.count,
              let prologue = Self.startTagEnd(in: data, at: outline.channel.lowerBound),
              prologue <= outline.itemSpan.lowerBound else {
            let whole = digest.of(data, 0..<data.count)
            self.init(headLength: data.count, headDigest: whole, prologueLength: data.count, prologueDigest: whole,
                      items: [], endLength: 0, endDigest: digest.of(data, data.count..<data.count))
            return
        }
        let items = Self.items(outline.items, lastGapEnd: outline.itemSpan.upperBound, in: data, digest: digest)
        let split = outline.itemSpan
        self.init(headLength: split.lowerBound, headDigest: digest.of(data, 0..<split.lowerBound),
                  prologueLength: prologue, prologueDigest: digest.of(data, 0..<prologue), items: items,
                  endLength: data.count - split.upperBound, endDigest: digest.of(data, split.upperBound..<data.count))
    }

    /// The items at `ranges` in `data`, each with the bytes up to the next
    /// one; the last one's run to `lastGapEnd`.
    private static func items(_ ranges: [Range<Int>], lastGapEnd: Int, in data: Data,
                              digest: FeedDocumentDigest) -> [Item] {
        ranges.indices.map { index in
            let gap = ranges[index].upperBound..<(index + 1 < ranges.count ? ranges[index + 1].lowerBound : lastGapEnd)
            return Item(length: ranges[index].count, digest: digest.of(data, ranges[index]),
                        gapLength: gap.count, gapDigest: digest.of(data, gap))
        }
    }

    /// Just past the end of the start tag at `start`: its first `>` outside a
    /// quoted attribute value. `nil` if there is none.
    private static func startTagEnd(in data: Data, at start: Int) -> Int? {
        data.withUnsafeBytes { bytes -> Int? in
            var quote: UInt8?
            for index in start..<bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return index + 1
                }
            }
            return nil
        }
    }

    func change(to data: Data, digest: FeedDocumentDigest) -> Change {
        let count = data.count
        guard count >= prologueLength + endLength, digest.of(data, 0..<prologueLength) == prologueDigest,
              digest.of(data, (count - endLength)..<count) == endDigest else { return .other }
        guard let first = items.first else { return count == headLength + endLength ? .same : .other }
        let bottom = count - endLength
        // Where the first item would start were the items from `last` on gone:
        // one cheap look at that item, then every kept one in turn.
        var lengthBefore = [0]
        for item in items.dropLast() { lengthBefore.append(lengthBefore[lengthBefore.count - 1] + item.length + item.gapLength) }
        for last in stride(from: items.count - 1, through: max(0, items.count - 1 - Self.maxDropped), by: -1) {
            let start = bottom - lengthBefore[last] - items[last].length
            // Lengths are never negative, so every item read lies between `start` and `bottom`.
            guard start >= prologueLength, digest.of(data, start..<(start + first.length)) == first.digest,
                  holdsItems(data, from: start, through: last, digest: digest) else { continue }
            if start == headLength && last == items.count - 1 && digest.of(data, 0..<headLength) == headDigest {
                return .same
            }
            var partial = Data(data.prefix(start))
            partial.append(data.suffix(endLength))
            return .itemsAdded(partial: partial, added: prologueLength..<start, kept: last + 1)
        }
        return .other
    }

    /// Whether `data` holds this layout's items from the first through `last`
    /// from `start` on, `last` without its gap.
    private func holdsItems(_ data: Data, from start: Int, through last: Int, digest: FeedDocumentDigest) -> Bool {
        var offset = start
        for index in 0...last {
            let item = items[index]
            guard digest.of(data, offset..<(offset + item.length)) == item.digest else { return false }
            offset += item.length
            guard index < last else { break }
            guard digest.of(data, offset..<(offset + item.gapLength)) == item.gapDigest else { return false }
            offset += item.gapLength
        }
        return true
    }

    /// The layout of `data`, which `change(to:)` found to be this layout's
    /// document with `added` in place of its head and the oldest past `kept`
    /// gone, once `partial` was parsed with `outline`. All head where the
    /// added bytes hold a field among or below the new items.
    func grown(to data: Data, added: Range<Int>, kept: Int, partialOutline outline: FeedItemOutline?,
               digest: FeedDocumentDigest) -> FeedDocumentLayout {
        var keptItems = Array(items.prefix(kept))
        let lastKept = keptItems.count - 1
        keptItems[lastKept].gapLength = 0
        keptItems[lastKept].gapDigest = digest.of(data, 0..<0)
        // The new head runs to the first new item, or to the kept ones.
        let newRanges = outline?.items.filter { added.contains($0.lowerBound) } ?? []
        let head = newRanges.first?.lowerBound ?? added.upperBound
        guard let outline, outline.holdsNoField(in: head..<added.upperBound),
              newRanges.last.map({ $0.upperBound <= added.upperBound }) ?? true,
              outline.channel.lowerBound < added.lowerBound, outline.channel.upperBound > added.upperBound else {
            return FeedDocumentLayout(of: data, outline: nil, digest: digest)
        }
        let newItems = Self.items(newRanges, lastGapEnd: added.upperBound, in: data, digest: digest)
        return FeedDocumentLayout(headLength: head, headDigest: digest.of(data, 0..<head),
                                  prologueLength: prologueLength, prologueDigest: prologueDigest,
                                  items: newItems + keptItems, endLength: endLength, endDigest: endDigest)
    }
}
