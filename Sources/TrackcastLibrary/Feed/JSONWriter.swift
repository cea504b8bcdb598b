/// Writes pretty-printed JSON (two-space indentation, object keys in the order
/// written) straight to UTF-8 bytes, as the values are visited: a feed's
/// thousands of episodes become JSON without first becoming a tree of values.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the open object or array has no member yet.
    private var isEmpty = true

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ members: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), members)
    }

    mutating func array<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]")) { json in
            for value in elements {
                json.nextMember()
                element(&json, value)
            }
        }
    }

    /// A member's key; its value is written next.
    mutating func key(_ name: String) {
        nextMember()
        string(name)
        bytes += ": ".utf8
    }

    mutating func null() { bytes += "null".utf8 }

    mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        bytes += (value ? "true" : "false").utf8
    }

    mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        bytes += String(value).utf8
    }

    /// Whole numbers without a fraction; JSON has no NaN or infinity (the parser never produces them).
    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        if value == value.rounded(), abs(value) < 1e15 {
            bytes += String(Int64(value)).utf8
        } else {
            bytes += String(value).utf8
        }
    }

    /// RFC 8259 escaping: quotes, backslashes and control characters; everything
    /// else, slashes and non-ASCII included, as is, copied a run at a time.
    mutating func string(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { source in
            bytes.reserveCapacity(bytes.count + source.count + 2)
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            var i = 0
            while i < source.count {
                // Eight bytes a step while none needs escaping, the common case.
                if i + 8 <= source.count,
                   !Self.needsEscaping(UnsafeRawPointer(source.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
                    i += 8
                    continue
                }
                let byte = source[i]
                i += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<(i - 1)]))
                runStart = i
                switch byte {
                case UInt8(ascii: "\""): bytes += #"\""#.utf8
                case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
                case 0x0A: bytes += #"\n"#.utf8
                case 0x0D: bytes += #"\r"#.utf8
                case 0x09: bytes += #"\t"#.utf8
                case 0x08: bytes += #"\b"#.utf8
                case 0x0C: bytes += #"\f"#.utf8
                default: bytes += (#"\u00"# + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// The line break that ends a document.
    mutating func finish() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `{}` or `[]` when empty; otherwise each member on a line of its own, indented a level deeper.
    private mutating func container(open: UInt8, close: UInt8, _ members: (inout JSONWriter) -> Void) {
        bytes.append(open)
        let outerIsEmpty = isEmpty
        isEmpty = true
        depth += 1
        members(&self)
        depth -= 1
        if !isEmpty {
            bytes.append(UInt8(ascii: "\n"))
            indent()
        }
        bytes.append(close)
        isEmpty = outerIsEmpty
    }

    private mutating func nextMember() {
        bytes += (isEmpty ? "\n" : ",\n").utf8
        isEmpty = false
        indent()
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// Whether any of the eight bytes in `word` is below 0x20, a quote or a
    /// backslash (the classic bit tricks for a zero byte and a byte below n,
    /// exact as yes-or-no answers).
    private static func needsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        let hasControl = (word &- ones &* 0x20) & ~word & highs != 0
        return hasControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }
}
