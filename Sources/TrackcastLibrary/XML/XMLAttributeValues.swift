import Foundation

/// An element's attributes copied out of the reader's callback, for a handler
/// that keeps them past it (the feed handler, until a text element ends):
/// each qualified name (`prefix:local`, or `local`) with its value, in
/// document order, as bytes, a value made a string only when asked for.
///
/// Bytes in one buffer, not a list of strings: a feed copies the attributes
/// of thousands of elements and reads one or none of each (a guid's
/// `isPermaLink`), and making a string of every name and value, and freeing
/// them, was 3 % of its parse. `refill(from:)` reuses the buffer.
struct XMLAttributeValues {
    /// Each attribute's qualified name and then its value, one after another.
    private var bytes: [UInt8] = []
    /// Where each attribute's name and value end in `bytes`; each name starts where the value before ends.
    private var ends: [(name: Int, value: Int)] = []

    init() {}

    /// Emptied, keeping its capacity.
    mutating func removeAll() {
        // Only when not empty: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`, some 60 instructions even on an empty array.
        if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        if !ends.isEmpty { ends.removeAll(keepingCapacity: true) }
    }

    /// Adds an attribute: `prefix` (when not empty), a colon and `local` as its name.
    mutating func append(prefix: UnsafeBufferPointer<UInt8>, local: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if !prefix.isEmpty {
            bytes.append(contentsOf: prefix)
            bytes.append(UInt8(ascii: ":"))
        }
        bytes.append(contentsOf: local)
        let nameEnd = bytes.count
        bytes.append(contentsOf: value)
        ends.append((nameEnd, bytes.count))
    }

    /// The value of the attribute with this qualified name; a name given twice keeps its last value.
    subscript(name: StaticString) -> String? {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return bytes.withUnsafeBufferPointer { bytes in
            var index = ends.count - 1
            while index >= 0 {
                let nameStart = index == 0 ? 0 : ends[index - 1].value
                let (nameEnd, valueEnd) = ends[index]
                if nameEnd - nameStart == wanted.count,
                   wanted.isEmpty || memcmp(bytes.baseAddress! + nameStart, wanted.baseAddress!, wanted.count) == 0 {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameEnd..<valueEnd]), as: UTF8.self)
                }
                index -= 1
            }
            return nil
        }
    }
}
