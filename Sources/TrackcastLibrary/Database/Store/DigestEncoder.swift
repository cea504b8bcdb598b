import Foundation

/// An `Encoder` that feeds what a value encodes straight into an `FNV1a`
/// hash: a fingerprint of every field `Codable` sees, without making JSON of
/// it first (`EpisodeContentHash`, where JSONEncoder was most of applying a
/// changed feed).
///
/// Every key and element is hashed with its depth, and every value with a tag
/// of its kind and, for strings, its length: a depth-annotated pre-order walk
/// is one tree's alone, so `[["a"], ["b"]]` and `[["a", ["b"]]]`, or "ab"
/// then "c" and "a" then "bc", hash apart. A `nil` that `encodeIfPresent`
/// leaves out leaves out its key; one encoded as `encodeNil` is a tag.
final class DigestEncoder: Encoder {
    private(set) var hash = FNV1a()
    private(set) var codingPath: [any CodingKey] = []
    /// The depth of the containers made now: one more inside each value or
    /// nested container (a nested container's own depth, `codingPath` does
    /// not grow for it).
    private var depth = 0
    let userInfo: [CodingUserInfoKey: Any] = [:]

    fileprivate enum Tag: UInt8 {
        case key = 1, element, keyedContainer, unkeyedContainer, null, bool, string, signed, unsigned, double
    }

    static func digest(of value: some Encodable) -> Int64 {
        let encoder = DigestEncoder()
        // Encoding fails only where a value's own `encode(to:)` throws; the
        // description stands in, as JSONEncoder's failures did before.
        if (try? value.encode(to: encoder)) == nil {
            encoder.hash.add(String(reflecting: value).utf8)
        }
        return encoder.hash.signed
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        add(.keyedContainer)
        return KeyedEncodingContainer(Keyed<Key>(encoder: self, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        add(.unkeyedContainer)
        return Unkeyed(encoder: self, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValue(encoder: self) }

    // MARK: Feeding the hash

    private func add(_ tag: Tag) { hash.add(CollectionOfOne(tag.rawValue)) }

    private func add(_ integer: UInt64) {
        withUnsafeBytes(of: integer.littleEndian) { hash.add($0) }
    }

    fileprivate func mark(_ tag: Tag, _ name: String, depth: Int) {
        add(tag)
        add(UInt64(depth))
        addString(name)
    }

    fileprivate func addNil() { add(.null) }
    fileprivate func add(_ value: Bool) { add(.bool); add(value ? 1 : 0) }

    fileprivate func addString(_ value: String) {
        add(.string)
        var value = value
        value.withUTF8 { utf8 in
            add(UInt64(utf8.count))
            hash.add(UnsafeRawBufferPointer(utf8))
        }
    }

    fileprivate func add(_ value: some FixedWidthInteger & SignedInteger) { add(.signed); add(UInt64(bitPattern: Int64(value))) }
    fileprivate func add(_ value: some FixedWidthInteger & UnsignedInteger) { add(.unsigned); add(UInt64(value)) }

    fileprivate func add(_ value: Double) {
        add(.double)
        // Every NaN is the same value to a feed; -0 and 0 are not the same text.
        add(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
    }

    fileprivate func add(_ value: some Encodable, at key: any CodingKey, depth: Int) throws {
        try nested(depth: depth) {
            codingPath.append(key)
            defer { codingPath.removeLast() }
            try value.encode(to: self)
        }
    }

    /// What `body` makes, one deeper than a container at `depth`.
    fileprivate func nested<Result>(depth: Int, _ body: () throws -> Result) rethrows -> Result {
        let outer = self.depth
        self.depth = depth + 1
        defer { self.depth = outer }
        return try body()
    }

    // MARK: Containers

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DigestEncoder
        let depth: Int
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func mark(_ key: Key) { encoder.mark(.key, key.stringValue, depth: depth) }

        mutating func encodeNil(forKey key: Key) throws { mark(key); encoder.addNil() }
        mutating func encode(_ value: Bool, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { mark(key); encoder.addString(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { mark(key); encoder.add(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { mark(key); encoder.add(value) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            mark(key)
            try encoder.add(value, at: key, depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            mark(key)
            return encoder.nested(depth: depth) { encoder.container(keyedBy: keyType) }
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            mark(key)
            return encoder.nested(depth: depth) { encoder.unkeyedContainer() }
        }

        mutating func superEncoder() -> any Encoder {
            encoder.mark(.key, "super", depth: depth)
            return encoder
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            mark(key)
            return encoder
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: DigestEncoder
        let depth: Int
        private(set) var count = 0
        var codingPath: [any CodingKey] { encoder.codingPath }

        init(encoder: DigestEncoder, depth: Int) {
            self.encoder = encoder
            self.depth = depth
        }

        private mutating func mark() {
            encoder.mark(.element, "", depth: depth)
            count += 1
        }

        mutating func encodeNil() throws { mark(); encoder.addNil() }
        mutating func encode(_ value: Bool) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: String) throws { mark(); encoder.addString(value) }
        mutating func encode(_ value: Double) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: Float) throws { mark(); encoder.add(Double(value)) }
        mutating func encode(_ value: Int) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: Int8) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: Int16) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: Int32) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: Int64) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: UInt) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: UInt8) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: UInt16) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: UInt32) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: UInt64) throws { mark(); encoder.add(value) }
        mutating func encode(_ value: some Encodable) throws {
            mark()
            try encoder.add(value, at: ElementKey(intValue: count - 1), depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey> {
            mark()
            return encoder.nested(depth: depth) { encoder.container(keyedBy: keyType) }
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            mark()
            return encoder.nested(depth: depth) { encoder.unkeyedContainer() }
        }

        mutating func superEncoder() -> any Encoder {
            mark()
            return encoder
        }
    }

    private struct SingleValue: SingleValueEncodingContainer {
        let encoder: DigestEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.addNil() }
        mutating func encode(_ value: Bool) throws { encoder.add(value) }
        mutating func encode(_ value: String) throws { encoder.addString(value) }
        mutating func encode(_ value: Double) throws { encoder.add(value) }
        mutating func encode(_ value: Float) throws { encoder.add(Double(value)) }
        mutating func encode(_ value: Int) throws { encoder.add(value) }
        mutating func encode(_ value: Int8) throws { encoder.add(value) }
        mutating func encode(_ value: Int16) throws { encoder.add(value) }
        mutating func encode(_ value: Int32) throws { encoder.add(value) }
        mutating func encode(_ value: Int64) throws { encoder.add(value) }
        mutating func encode(_ value: UInt) throws { encoder.add(value) }
        mutating func encode(_ value: UInt8) throws { encoder.add(value) }
        mutating func encode(_ value: UInt16) throws { encoder.add(value) }
        mutating func encode(_ value: UInt32) throws { encoder.add(value) }
        mutating func encode(_ value: UInt64) throws { encoder.add(value) }
        mutating func encode(_ value: some Encodable) throws { try value.encode(to: encoder) }
    }

    private struct ElementKey: CodingKey {
        let intValue: Int?
        var stringValue: String { String(intValue ?? 0) }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { return nil }
    }
}
