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
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
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
}
