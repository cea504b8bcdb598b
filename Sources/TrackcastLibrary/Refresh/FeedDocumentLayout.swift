import Foundation

/// What a refresh keeps of the feed document it applied, to recognise the
/// next one without parsing it whole.
///
/// Many podcast hosts send neither an ETag nor a Last-Modified, so every
/// refresh brings the whole feed again; and a feed that did change mostly
/// gained an item or two at its top, above hundreds of items byte for byte
/// as before. The layout splits the document at its first item: the *head*
/// (the channel's fields) and the *tail* (the items, and the *end* after
/// them: closing tags, perhaps fields). The next document is then
/// - the same: head and tail digests match, nothing to parse, as a 304;
/// - the same head, then new bytes, then the same tail: items added at the
///   top. Parsing the head, the new bytes and the end alone gives the
///   channel and the new items exactly as parsing it all would, since the
///   tail's items read the same (the same bytes in the same channel, with
///   the same address and the same app; `FeedDocumentDigest`) and the store
///   keeps episodes that are not in a feed it applies;
/// - anything else: parsed whole.
///
/// The split is made only where the parser vouched for it
/// (`FeedItemOutline`): one channel, open around the items, and no channel
/// field among them (a field would be missed, read from the tail). A
/// document without such an outline keeps everything in its head.
public struct FeedDocumentLayout: Sendable, Equatable {
    public let headLength: Int
    public let headDigest: Int64
    public let tailLength: Int
    public let tailDigest: Int64
    /// Bytes after the last item, the tail's last.
    public let endLength: Int

    public init(headLength: Int, headDigest: Int64, tailLength: Int, tailDigest: Int64, endLength: Int) {
        self.headLength = headLength
        self.headDigest = headDigest
        self.tailLength = tailLength
        self.tailDigest = tailDigest
        self.endLength = endLength
    }

    /// How `data` compares with the document this layout was made of.
    enum Change {
        case same
        /// `data` is that document with `added` inserted at its first item:
        /// `partial` is `data` less the old items (head, added bytes, end),
        /// `added` the same range in both.
        case itemsAdded(partial: Data, added: Range<Int>)
        case other
    }

    /// The layout of `data`, split where `outline` allows.
    init(of data: Data, outline: FeedItemOutline?, digest: FeedDocumentDigest) {
        guard let outline, outline.holdsNoField(in: outline.items),
              outline.channel.lowerBound < outline.items.lowerBound,
              outline.channel.upperBound <= data.count else {
            self.init(headLength: data.count, headDigest: digest.of(data, 0..<data.count), tailLength: 0,
                      tailDigest: 0, endLength: 0)
            return
        }
        let split = outline.items.lowerBound
        self.init(headLength: split, headDigest: digest.of(data, 0..<split), tailLength: data.count - split,
                  tailDigest: digest.of(data, split..<data.count), endLength: data.count - outline.items.upperBound)
    }

    func change(to data: Data, digest: FeedDocumentDigest) -> Change {
        let count = data.count
        guard count >= headLength + tailLength, digest.of(data, 0..<headLength) == headDigest else { return .other }
        if count == headLength + tailLength {
            return tailLength == 0 || digest.of(data, headLength..<count) == tailDigest ? .same : .other
        }
        guard tailLength > 0, digest.of(data, (count - tailLength)..<count) == tailDigest else { return .other }
        var partial = Data(data.prefix(count - tailLength))
        partial.append(data.suffix(endLength))
        return .itemsAdded(partial: partial, added: headLength..<(count - tailLength))
    }

    /// The layout of `data`, which `change(to:)` found to be this layout's
    /// document with items added, once `partial` was parsed with
    /// `outline`: the same head, a longer tail. Kept whole (no tail) where
    /// the added bytes hold more than items at the channel's level.
    func grown(to data: Data, added: Range<Int>, partialOutline outline: FeedItemOutline?,
               digest: FeedDocumentDigest) -> FeedDocumentLayout {
        guard let outline, outline.holdsNoField(in: added), outline.channel.lowerBound < added.lowerBound,
              outline.channel.upperBound > added.upperBound else {
            return FeedDocumentLayout(of: data, outline: nil, digest: digest)
        }
        return FeedDocumentLayout(headLength: headLength, headDigest: headDigest, tailLength: data.count - headLength,
                                  tailDigest: digest.of(data, headLength..<data.count), endLength: endLength)
    }
}
