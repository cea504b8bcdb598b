import Foundation

/// The document an interstitial's `X-ASSET-LIST` names: the assets that
/// play one after the other in its slot,
/// `{"ASSETS": [{"URI": "…", "DURATION": seconds}, …]}`, their addresses
/// resolved against the list's own.
///
/// The list comes from an ad server: it is read by a JSON reader of its
/// own, in one pass over at most `maximumSize` bytes, nested at most
/// `maximumDepth` deep, and every asset is checked (a web address, a
/// finite duration within a media time) before anything plays. A list with
/// one bad asset is refused whole: which of its assets were meant to play
/// together cannot be told.
public struct HLSAssetList: Sendable, Equatable {
    public struct Asset: Sendable, Equatable {
        public var uri: URL
        /// Seconds, as the list says.
        public var duration: Double

        public init(uri: URL, duration: Double) {
            self.uri = uri
            self.duration = duration
        }
    }

    public var assets: [Asset]

    /// A list of a hundred assets is a few kilobytes.
    public static let maximumSize = 256 << 10
    static let maximumAssets = 100
    static let maximumDepth = 32

    public init(_ data: Data, url: URL) throws(HLSAssetListError) {
        var steps = 0
        try self.init(Array(data), url: url, steps: &steps)
    }

    /// `steps` counts the bytes looked at, for the tests that hold the reading linear.
    init(_ bytes: [UInt8], url: URL, steps: inout Int) throws(HLSAssetListError) {
        guard bytes.count <= Self.maximumSize else { throw .tooLarge(bytes: bytes.count) }
        var reader = JSONReader(bytes: bytes)
        let document = try reader.document(steps: &steps)
        guard case .object(let members) = document, case .array(let entries)? = Self.member("ASSETS", of: members) else {
            throw .noAssetArray
        }
        guard entries.count <= Self.maximumAssets else { throw .tooManyAssets(entries.count) }
        assets = try entries.enumerated().map { (index, entry) throws(HLSAssetListError) in
            guard case .object(let fields) = entry else { throw .badAsset(index: index, reason: "not an object") }
            guard case .string(let text)? = Self.member("URI", of: fields),
                  let resolved = URL(string: text, relativeTo: url)?.absoluteURL,
                  ["http", "https"].contains(resolved.scheme?.lowercased() ?? "") else {
                throw .badAsset(index: index, reason: "no web address in URI")
            }
            guard case .number(let number)? = Self.member("DURATION", of: fields) else {
                throw .badAsset(index: index, reason: "no DURATION number")
            }
            guard let seconds = Double(number), seconds.isFinite, seconds >= 0, seconds <= HLSAttributes.maximumSeconds else {
                throw .badAsset(index: index, reason: "DURATION \(number) is not a time")
            }
            return Asset(uri: resolved, duration: seconds)
        }
    }

    /// The first member named `name`, as `HLSAttributes` keeps the first of a name seen twice.
    private static func member(_ name: String, of members: [(String, JSONValue)]) -> JSONValue? {
        members.first { $0.0 == name }?.1
    }
}

/// Why an asset list was not read.
public enum HLSAssetListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Larger than `HLSAssetList.maximumSize`.
    case tooLarge(bytes: Int)
    /// Not JSON, from this byte on.
    case notJSON(offset: Int)
    /// Arrays and objects nested deeper than `HLSAssetList.maximumDepth`.
    case tooDeep
    /// No `ASSETS` array in a top-level object.
    case noAssetArray
    case tooManyAssets(Int)
    case badAsset(index: Int, reason: String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes): "larger than \(HLSAssetList.maximumSize) bytes (\(bytes))"
        case .notJSON(let offset): "not JSON at byte \(offset)"
        case .tooDeep: "nested deeper than \(HLSAssetList.maximumDepth)"
        case .noAssetArray: "no ASSETS array"
        case .tooManyAssets(let count): "\(count) assets, more than \(HLSAssetList.maximumAssets)"
        case .badAsset(let index, let reason): "asset \(index): \(reason)"
        }
    }
}

/// A JSON value as the asset list needs it: numbers kept as their text,
/// for the reader to check and to quote.
enum JSONValue: Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}

/// RFC 8259 JSON, read in one pass: each byte is looked at once, nesting
/// is bounded, and nothing it reads can trap.
struct JSONReader {
    let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func document(steps: inout Int) throws(HLSAssetListError) -> JSONValue {
        // A byte-order mark is not JSON, but servers send one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let value = try self.value(depth: 0, steps: &steps)
        skipSpace(steps: &steps)
        guard index == bytes.count else { throw .notJSON(offset: index) }
        return value
    }

    private mutating func value(depth: Int, steps: inout Int) throws(HLSAssetListError) -> JSONValue {
        skipSpace(steps: &steps)
        guard index < bytes.count else { throw .notJSON(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < HLSAssetList.maximumDepth else { throw .tooDeep }
            index += 1
            steps += 1
            var members: [(String, JSONValue)] = []
            skipSpace(steps: &steps)
            if consume(UInt8(ascii: "}"), steps: &steps) { return .object(members) }
            repeat {
                skipSpace(steps: &steps)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .notJSON(offset: index) }
                let name = try string(steps: &steps)
                skipSpace(steps: &steps)
                guard consume(UInt8(ascii: ":"), steps: &steps) else { throw .notJSON(offset: index) }
                members.append((name, try value(depth: depth + 1, steps: &steps)))
                skipSpace(steps: &steps)
            } while consume(UInt8(ascii: ","), steps: &steps)
            guard consume(UInt8(ascii: "}"), steps: &steps) else { throw .notJSON(offset: index) }
            return .object(members)
        case UInt8(ascii: "["):
            guard depth < HLSAssetList.maximumDepth else { throw .tooDeep }
            index += 1
            steps += 1
            var elements: [JSONValue] = []
            skipSpace(steps: &steps)
            if consume(UInt8(ascii: "]"), steps: &steps) { return .array(elements) }
            repeat {
                elements.append(try value(depth: depth + 1, steps: &steps))
                skipSpace(steps: &steps)
            } while consume(UInt8(ascii: ","), steps: &steps)
            guard consume(UInt8(ascii: "]"), steps: &steps) else { throw .notJSON(offset: index) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try string(steps: &steps))
        case UInt8(ascii: "t"):
            try literal("true", steps: &steps)
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false", steps: &steps)
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null", steps: &steps)
            return .null
        default:
            return .number(try number(steps: &steps))
        }
    }

    private mutating func skipSpace(steps: inout Int) {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
            index += 1
            steps += 1
        }
    }

    private mutating func consume(_ byte: UInt8, steps: inout Int) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        steps += 1
        return true
    }

    private mutating func literal(_ word: StaticString, steps: inout Int) throws(HLSAssetListError) {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw .notJSON(offset: index) }
        index += count
        steps += count
    }

    /// A number as JSON writes one (`-`, digits, a fraction, an exponent), kept as text.
    private mutating func number(steps: inout Int) throws(HLSAssetListError) -> String {
        let start = index
        func digits(_ reader: inout JSONReader, _ steps: inout Int) -> Int {
            let first = reader.index
            while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) {
                reader.index += 1
                steps += 1
            }
            return reader.index - first
        }
        _ = consume(UInt8(ascii: "-"), steps: &steps)
        guard digits(&self, &steps) > 0 else { throw .notJSON(offset: index) }
        if consume(UInt8(ascii: "."), steps: &steps) {
            guard digits(&self, &steps) > 0 else { throw .notJSON(offset: index) }
        }
        if consume(UInt8(ascii: "e"), steps: &steps) || consume(UInt8(ascii: "E"), steps: &steps) {
            if !consume(UInt8(ascii: "+"), steps: &steps) { _ = consume(UInt8(ascii: "-"), steps: &steps) }
            guard digits(&self, &steps) > 0 else { throw .notJSON(offset: index) }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A string from its opening quote, its escapes decoded; a lone
    /// surrogate becomes U+FFFD, as in a web browser.
    private mutating func string(steps: inout Int) throws(HLSAssetListError) -> String {
        index += 1
        steps += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ reader: JSONReader, to end: Int) {
            scalars.append(contentsOf: String(decoding: reader.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            steps += 1
            if byte == UInt8(ascii: "\"") {
                flush(self, to: index)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw .notJSON(offset: index) }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            flush(self, to: index)
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            steps += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escaped))
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var unit = try hexUnit(steps: &steps)
                if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                   bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    steps += 2
                    let low = try hexUnit(steps: &steps)
                    if (0xDC00..<0xE000).contains(low) {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalars.append("\u{FFFD}")
                        unit = low
                    }
                }
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            default:
                throw .notJSON(offset: index - 1)
            }
            runStart = index
        }
        throw .notJSON(offset: index)
    }

    private mutating func hexUnit(steps: inout Int) throws(HLSAssetListError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .notJSON(offset: index) }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { throw .notJSON(offset: index) }
            unit = unit << 4 | UInt32(digit)
            index += 1
            steps += 1
        }
        return unit
    }
}
