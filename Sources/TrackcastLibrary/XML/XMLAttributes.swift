import CLibXML2
import Foundation

/// An element's attributes as libxml2's SAX2 start callback hands them over:
/// five pointers per attribute (local name, prefix, namespace URI, value
/// start, value end), valid only during that callback (`XMLByteReader` lays
/// out its attributes the same way). Non-copyable and lent
/// to the handler (`borrowing`), so it cannot outlive the callback.
struct XMLAttributes: ~Copyable {
    private let fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    private let count: Int

    init(fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int32) {
        self.fields = fields
        self.count = fields == nil ? 0 : Int(count)
    }

    /// The value of the attribute `prefix:localName` (or `localName` when
    /// `prefix` is nil), as written: prefixes are compared, not namespaces.
    func value(localName: StaticString, prefix: StaticString? = nil) -> String? {
        guard let fields else { return nil }
        // From the end: a name given twice keeps its last value, as everywhere else.
        for index in (0..<count).reversed() {
            let base = index * 5
            guard let name = fields[base], Self.equals(name, localName) else { continue }
            let attributePrefix = fields[base + 1]
            switch (prefix, attributePrefix) {
            case (nil, nil): break
            case (let wanted?, let actual?) where Self.equals(actual, wanted): break
            default: continue
            }
            return Self.value(fields[base + 3], fields[base + 4])
        }
        return nil
    }

    /// The value of the attribute with this qualified name, as `values` would
    /// answer (a name given twice keeps its last value, as libxml2 passes both
    /// on), but read in place: for an element whose few values are used during
    /// the callback, it spares making a string of every name (and of the values
    /// not asked for).
    /// A name known when compiled: its bytes are there to compare, with no
    /// string to bridge (a look-up of a `String` cost some 200 instructions
    /// before its value was made).
    subscript(name: StaticString) -> String? {
        guard let fields else { return nil }
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var index = count - 1
        while index >= 0 {
            if Self.hasQualifiedName(wanted, fields, index * 5) {
                return Self.value(fields[index * 5 + 3], fields[index * 5 + 4]) ?? ""
            }
            index -= 1
        }
        return nil
    }

    /// All attributes keyed by their qualified name (`prefix:local`, or `local`);
    /// a name given twice keeps its last value.
    var dictionary: [String: String] {
        var result = [String: String](minimumCapacity: count)
        forEachQualified { result[$0] = $1 }
        return result
    }

    /// All attributes by qualified name, copied for the feed handler (see `XMLAttributeValues`).
    var values: XMLAttributeValues {
        var result = XMLAttributeValues()
        copy(into: &result)
        return result
    }

    /// All attributes by qualified name, copied into `values` in place of what it held:
    /// a feed copies every text element's, and its buffer serves them all.
    func copy(into values: inout XMLAttributeValues) {
        values.removeAll()
        guard let fields else { return }
        for index in 0..<count {
            let base = index * 5
            guard let local = fields[base] else { continue }
            let value = fields[base + 3].map { start in
                UnsafeBufferPointer(start: start, count: max(0, (fields[base + 4] ?? start) - start))
            }
            values.append(prefix: Self.bytes(of: fields[base + 1]), local: Self.bytes(of: local),
                          value: value ?? UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    /// A C string's bytes, without its terminator; none for nil.
    private static func bytes(of cString: UnsafePointer<xmlChar>?) -> UnsafeBufferPointer<UInt8> {
        guard let cString else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: cString, count: strlen(UnsafeRawPointer(cString).assumingMemoryBound(to: CChar.self)))
    }

    private func forEachQualified(_ body: (_ name: String, _ value: String) -> Void) {
        guard let fields else { return }
        for index in 0..<count {
            let base = index * 5
            guard let name = fields[base] else { continue }
            var key = String(cString: name)
            if let prefix = fields[base + 1], prefix.pointee != 0 {
                key = String(cString: prefix) + ":" + key
            }
            body(key, Self.value(fields[base + 3], fields[base + 4]) ?? "")
        }
    }

    private static func value(_ start: UnsafePointer<xmlChar>?, _ end: UnsafePointer<xmlChar>?) -> String? {
        guard let start, let end else { return nil }
        return String(decoding: UnsafeBufferPointer(start: start, count: max(0, end - start)), as: UTF8.self)
    }

    /// Whether `wanted` is `prefix:local` (or `local`, for no or an empty prefix) of the attribute at `base`.
    private static func hasQualifiedName(_ wanted: UnsafeBufferPointer<UInt8>,
                                         _ fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ base: Int) -> Bool {
        guard let local = fields[base] else { return false }
        var offset = 0
        if let prefix = fields[base + 1], prefix.pointee != 0 {
            while prefix[offset] != 0 {
                guard offset < wanted.count, wanted[offset] == prefix[offset] else { return false }
                offset += 1
            }
            guard offset < wanted.count, wanted[offset] == UInt8(ascii: ":") else { return false }
            offset += 1
        }
        var index = 0
        while local[index] != 0 {
            guard offset + index < wanted.count, wanted[offset + index] == local[index] else { return false }
            index += 1
        }
        return offset + index == wanted.count
    }

    private static func equals(_ cString: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        let length = name.utf8CodeUnitCount
        let bytes = name.utf8Start
        for offset in 0..<length where cString[offset] != bytes[offset] {
            return false  // also stops at cString's terminator, which no name byte equals
        }
        return cString[length] == 0
    }
}
