import Foundation

/// An HLS attribute list (`NAME=VALUE,NAME="quoted",…`), read in one pass.
/// A quoted value runs to the next quote (HLS has no escapes); an unquoted
/// one to the next comma. A name seen twice keeps its first value; a list
/// cut short keeps what came before the cut.
struct HLSAttributes {
    private var values: [String: String] = [:]

    /// The longest media time accepted, as `MediaTime` allows.
    static let maximumSeconds = 1e9

    init(_ bytes: [UInt8], _ range: Range<Int>, steps: inout Int) {
        var index = range.lowerBound
        let end = range.upperBound
        var count = 0
        while index < end, count < HLSMediaPlaylist.maximumAttributes {
            let nameStart = index
            while index < end, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") {
                index += 1
                steps += 1
            }
            let name = Self.string(bytes, nameStart..<index).trimmingCharacters(in: .whitespaces)
            guard index < end, bytes[index] == UInt8(ascii: "=") else {
                index += 1
                continue
            }
            index += 1
            let value: String
            if index < end, bytes[index] == UInt8(ascii: "\"") {
                let valueStart = index + 1
                index = valueStart
                while index < end, bytes[index] != UInt8(ascii: "\"") {
                    index += 1
                    steps += 1
                }
                guard index < end else { break }
                value = Self.string(bytes, valueStart..<index)
                index += 1
                // To the comma after the closing quote.
                while index < end, bytes[index] != UInt8(ascii: ",") {
                    index += 1
                    steps += 1
                }
            } else {
                let valueStart = index
                while index < end, bytes[index] != UInt8(ascii: ",") {
                    index += 1
                    steps += 1
                }
                value = Self.string(bytes, valueStart..<index).trimmingCharacters(in: .whitespaces)
            }
            index += 1
            count += 1
            if !name.isEmpty, values[name] == nil { values[name] = value }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// A decimal number attribute, when it is one and finite.
    func number(_ name: String) -> Double? {
        guard let text = values[name], let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    static func hasPrefix(_ bytes: [UInt8], _ range: Range<Int>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return prefix.withUTF8Buffer { prefixBytes in
            for offset in 0..<count where bytes[range.lowerBound + offset] != prefixBytes[offset] { return false }
            return true
        }
    }

    /// The decimal number at the start of `range`, up to `terminator`; nil unless finite.
    static func number(_ bytes: [UInt8], _ range: Range<Int>, upTo terminator: UInt8) -> Double? {
        var end = range.lowerBound
        while end < range.upperBound, bytes[end] != terminator { end += 1 }
        guard let value = Double(string(bytes, range.lowerBound..<end).trimmingCharacters(in: .whitespaces)),
              value.isFinite else { return nil }
        return value
    }
}
