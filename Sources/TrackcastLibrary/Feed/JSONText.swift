/// A JSON value whose objects keep their keys in the order written, printed
/// with two-space indentation. `JSONEncoder` can only sort keys or scramble
/// them; the CLI's output reads better in the order a person expects
/// (title first, episodes last) and should not change from run to run.
enum JSONText {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONText])
    /// An array whose elements are made one at a time as they are written:
    /// a feed's thousands of episodes are never all held as values at once.
    case elements(count: Int, element: (Int) -> JSONText)
    case object([(key: String, value: JSONText)])

    static func optional<T>(_ value: T?, _ transform: (T) -> JSONText) -> JSONText {
        value.map(transform) ?? .null
    }

    /// Pretty-printed UTF-8, ending in a newline: written to bytes, not to a
    /// `String`, whose appends of a scalar at a time cost most of a large feed's output.
    func prettyUTF8(reservingCapacity capacity: Int = 4_096) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null:
            out += "null".utf8
        case .bool(let value):
            out += (value ? "true" : "false").utf8
        case .integer(let value):
            out += String(value).utf8
        case .number(let value):
            if !value.isFinite {
                out += "null".utf8 // JSON has no NaN or infinity; the parser never produces them
            } else if value == value.rounded(), abs(value) < 1e15 {
                out += String(Int64(value)).utf8
            } else {
                out += String(value).utf8
            }
        case .string(let value):
            Self.writeString(value, to: &out)
        case .array(let values):
            Self.writeArray(count: values.count, element: { values[$0] }, to: &out, indent: indent)
        case .elements(let count, let element):
            Self.writeArray(count: count, element: element, to: &out, indent: indent)
        case .object(let members):
            guard !members.isEmpty else { out += "{}".utf8; return }
            out += "{\n".utf8
            for (index, member) in members.enumerated() {
                Self.writeIndent(indent + 1, to: &out)
                Self.writeString(member.key, to: &out)
                out += ": ".utf8
                member.value.write(to: &out, indent: indent + 1)
                out += (index == members.count - 1 ? "\n" : ",\n").utf8
            }
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeArray(count: Int, element: (Int) -> JSONText, to out: inout [UInt8], indent: Int) {
        guard count > 0 else { out += "[]".utf8; return }
        out += "[\n".utf8
        for index in 0..<count {
            writeIndent(indent + 1, to: &out)
            element(index).write(to: &out, indent: indent + 1)
            out += (index == count - 1 ? "\n" : ",\n").utf8
        }
        writeIndent(indent, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    private static func writeIndent(_ level: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// RFC 8259 escaping: quotes, backslashes and control characters; everything
    /// else, slashes and non-ASCII included, as is, copied a run at a time.
    private static func writeString(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(UInt8(ascii: "\""))
            var runStart = 0
            var i = 0
            while i < bytes.count {
                // Eight bytes a step while none needs escaping, the common case.
                if i + 8 <= bytes.count,
                   !needsEscaping(UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
                    i += 8
                    continue
                }
                let byte = bytes[i]
                i += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<(i - 1)]))
                runStart = i
                switch byte {
                case UInt8(ascii: "\""): out += #"\""#.utf8
                case UInt8(ascii: "\\"): out += #"\\"#.utf8
                case 0x0A: out += #"\n"#.utf8
                case 0x0D: out += #"\r"#.utf8
                case 0x09: out += #"\t"#.utf8
                case 0x08: out += #"\b"#.utf8
                case 0x0C: out += #"\f"#.utf8
                default: out += (#"\u00"# + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            out.append(UInt8(ascii: "\""))
        }
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
