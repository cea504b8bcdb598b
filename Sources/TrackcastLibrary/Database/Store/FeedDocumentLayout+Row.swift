import Foundation

/// A layout's items as the `shows.feed_items` blob stores them: four
/// little-endian 64-bit integers each (length, digest, gap length, gap digest).
extension FeedDocumentLayout {
    var itemsBlob: Data {
        // One array and one copy: appending 8 bytes at a time to a Data cost
        // a refresh of 500 shows tens of milliseconds on the store's actor.
        var values: [Int64] = []
        values.reserveCapacity(items.count * 4)
        for item in items {
            values.append(Int64(item.length).littleEndian)
            values.append(item.digest.littleEndian)
            values.append(Int64(item.gapLength).littleEndian)
            values.append(item.gapDigest.littleEndian)
        }
        return values.withUnsafeBytes { Data($0) }
    }

    /// No feed comes near this many bytes (refreshes refuse 50 MB); lengths
    /// past it come from a damaged row, and their sums could overflow.
    static let lengthLimit = 1 << 40

    /// `nil` for a blob this version did not write: the next refresh parses the feed whole.
    static func items(fromBlob blob: Data) -> [Item]? {
        guard blob.count % 32 == 0, blob.count / 32 <= 1 << 20 else { return nil }
        var values: [Int64] = []
        values.reserveCapacity(blob.count / 8)
        blob.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 8) {
                values.append(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
            }
        }
        var items: [Item] = []
        for index in stride(from: 0, to: values.count, by: 4) {
            guard (0..<Int64(lengthLimit)).contains(values[index]),
                  (0..<Int64(lengthLimit)).contains(values[index + 2]) else { return nil }
            items.append(Item(length: Int(values[index]), digest: values[index + 1],
                              gapLength: Int(values[index + 2]), gapDigest: values[index + 3]))
        }
        return items
    }
}
