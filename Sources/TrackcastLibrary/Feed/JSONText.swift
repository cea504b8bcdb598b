/// A JSON value whose objects keep their keys in the order written, printed
/// with two-space indentation. `JSONEncoder` can only sort keys or scramble
/// them; the CLI's output reads better in the order a person expects
/// (title first, episodes last) and should not change from run to run.
/// For small documents; a feed's JSON goes straight to `JSONWriter`.
enum JSONText {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONText])
    case object([(key: String, value: JSONText)])

    static func optional<T>(_ value: T?, _ transform: (T) -> JSONText) -> JSONText {
        value.map(transform) ?? .null
    }

    /// Pretty-printed UTF-8, ending in a newline.
    var prettyUTF8: [UInt8] {
        var json = JSONWriter(reservingCapacity: 4_096)
        write(to: &json)
        json.finish()
        return json.bytes
    }

    private func write(to json: inout JSONWriter) {
        switch self {
        case .null: json.null()
        case .bool(let value): json.bool(value)
        case .integer(let value): json.integer(value)
        case .number(let value): json.number(value)
        case .string(let value): json.string(value)
        case .array(let values): json.array(values) { json, value in value.write(to: &json) }
        case .object(let members):
            json.object { json in
                for member in members {
                    json.key(escaping: member.key)
                    member.value.write(to: &json)
                }
            }
        }
    }
}
