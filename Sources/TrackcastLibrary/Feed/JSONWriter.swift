import CTrackcastText

/// Writes pretty-printed JSON (two-space indentation, object keys in the order
/// written) straight to UTF-8 bytes, as the values are visited: a feed's
/// thousands of episodes become JSON without first becoming a tree of values.
///
/// What it writes is safe for a terminal as it stands: besides what RFC 8259
/// requires, DEL and the C1 controls are escaped too, so that no byte of it
/// starts an escape sequence (`TerminalSafeJSON`).
struct JSONWriter: ~Copyable {
    /// Written up to `count`: room made ahead, so that a write is a copy into
    /// it. Appending to an array cost some 70 instructions a call in its
    /// generic path, and a feed's JSON makes 800,000 small writes; room in an
    /// array still cost a uniqueness check at each write (10 M instructions of
    /// a 10.8 MB feed's JSON), memory of the writer's own none.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var depth = 0
    /// Whether the open object or array has no member yet.
    private var isEmpty = true
    /// Where what is written goes whenever `storage` is full, if anywhere: then
    /// the same room is written again and again, and a document of megabytes
    /// never takes megabytes of fresh memory (a fresh process faults in each
    /// page it first touches).
    private var drain: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// Writes the whole document into `storage` (`bytes`), made `capacity` long
    /// at first and grown when that is not enough.
    init(reservingCapacity capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    /// Writes the document a piece at a time to `drain`: each piece at most
    /// `pieceSize` bytes, but for a single string longer than that. `bytes` stays empty.
    init(inPiecesOf pieceSize: Int, to drain: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        capacity = max(pieceSize, 64)
        storage = .allocate(capacity: capacity)
        self.drain = drain
    }

    deinit {
        storage.deallocate()
    }

    /// What was written.
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    mutating func object(_ members: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), members)
    }

    /// Each element read where it is: a loop over the array's values copied
    /// each episode out first, retaining and releasing its thirty-odd fields.
    mutating func array<Element>(_ elements: [Element], _ element: (inout JSONWriter, borrowing Element) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]")) { json in
            for index in elements.indices {
                json.nextMember()
                element(&json, elements[index])
            }
        }
    }

    /// A member's key written as it stands, quotes and colon around it: for
    /// the literal keys of a fixed layout, which need no escaping. Writing
    /// them through `string` cost a tenth of a large feed's JSON.
    mutating func key(_ name: StaticString) {
        // The separator, indentation, name, quotes and colon in one step: written a
        // piece at a time, the pieces' set-up cost more than their bytes.
        let separator = isEmpty ? 1 : 2
        let indent = 2 * depth
        let nameLength = name.utf8CodeUnitCount
        isEmpty = false
        write(count: separator + indent + nameLength + 4) { out in
            if separator == 2 { out[0] = UInt8(ascii: ",") }
            out[separator - 1] = UInt8(ascii: "\n")
            (out + separator).update(repeating: UInt8(ascii: " "), count: indent)
            let quoted = out + separator + indent
            quoted[0] = UInt8(ascii: "\"")
            (quoted + 1).update(from: name.utf8Start, count: nameLength)
            quoted[nameLength + 1] = UInt8(ascii: "\"")
            quoted[nameLength + 2] = UInt8(ascii: ":")
            quoted[nameLength + 3] = UInt8(ascii: " ")
        }
    }

    /// A member's key from data, escaped; its value is written next.
    mutating func key(escaping name: String) {
        nextMember()
        string(name)
        write(": ")
    }

    mutating func null() { write("null") }

    mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        write(value ? "true" : "false")
    }

    mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        if value < 0 { append(UInt8(ascii: "-")) }
        // Digits written last first into a small buffer, then copied in order.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Whole numbers without a fraction; JSON has no NaN or infinity (the parser never produces them).
    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            var text = String(value)
            text.withUTF8 { append($0) }
        }
    }

    /// RFC 8259 escaping: quotes, backslashes and control characters, and DEL
    /// and the C1 controls (U+0080–U+009F) for a terminal's sake; everything
    /// else, slashes and non-ASCII included, as is, copied a run at a time.
    mutating func string(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { source in
            // Room for the worst case (every byte six, as `\u00XX`), so that the string is
            // written in place in one step: show notes break into a run at every line,
            // and each run written on its own paid a write's set-up.
            makeRoom(for: 6 * source.count + 2)
            count += Self.escaping(source, into: storage + count)
        }
    }

    /// `source` quoted and escaped into `out`; the number of bytes written.
    private static func escaping(_ source: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        func put(_ byte: UInt8) {
            out[written] = byte
            written += 1
        }
        func put(_ literal: StaticString) {
            (out + written).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
            written += literal.utf8CodeUnitCount
        }
        func putEscape(_ byte: UInt8, digits: StaticString) {
            put(#"\u00"#)
            put(digits.utf8Start[Int(byte >> 4)])
            put(digits.utf8Start[Int(byte & 0x0F)])
        }
        func putRun(_ range: Range<Int>) {
            guard let start = source.baseAddress, !range.isEmpty else { return }
            (out + written).update(from: start + range.lowerBound, count: range.count)
            written += range.count
        }
        put(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < source.count {
            // Straight to the next byte that may need escaping (16 and 32 bytes a step, in C).
            i = tc_json_escape_candidate_index(source.baseAddress!, source.count, i)
            guard i < source.count else { break }
            let byte = source[i]
            i += 1
            // In UTF-8 a C1 control is 0xC2 and then 0x80–0x9F.
            let isC1 = byte == 0xC2 && i < source.count && source[i] >= 0x80 && source[i] <= 0x9F
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || isC1 else {
                continue
            }
            putRun(runStart..<(i - 1))
            if isC1 {
                // Upper-case digits, as `TerminalText` writes what it escapes.
                putEscape(source[i], digits: "0123456789ABCDEF")
                i += 1
                runStart = i
                continue
            }
            runStart = i
            switch byte {
            case UInt8(ascii: "\""): put(#"\""#)
            case UInt8(ascii: "\\"): put(#"\\"#)
            case 0x0A: put(#"\n"#)
            case 0x0D: put(#"\r"#)
            case 0x09: put(#"\t"#)
            case 0x08: put(#"\b"#)
            case 0x0C: put(#"\f"#)
            case 0x7F: putEscape(byte, digits: "0123456789ABCDEF")
            default: putEscape(byte, digits: "0123456789abcdef")
            }
        }
        putRun(runStart..<source.count)
        put(UInt8(ascii: "\""))
        return written
    }

    /// The line break that ends a document; with a drain, the last piece handed to it.
    mutating func finish() {
        append(UInt8(ascii: "\n"))
        drainWritten()
    }

    /// `{}` or `[]` when empty; otherwise each member on a line of its own, indented a level deeper.
    private mutating func container(open: UInt8, close: UInt8, _ members: (inout JSONWriter) -> Void) {
        append(open)
        let outerIsEmpty = isEmpty
        isEmpty = true
        depth += 1
        members(&self)
        depth -= 1
        if !isEmpty {
            append(UInt8(ascii: "\n"))
            indent()
        }
        append(close)
        isEmpty = outerIsEmpty
    }

    private mutating func nextMember() {
        let separator = isEmpty ? 1 : 2
        let indent = 2 * depth
        isEmpty = false
        write(count: separator + indent) { out in
            if separator == 2 { out[0] = UInt8(ascii: ",") }
            out[separator - 1] = UInt8(ascii: "\n")
            (out + separator).update(repeating: UInt8(ascii: " "), count: indent)
        }
    }

    private mutating func indent() {
        let indent = 2 * depth
        write(count: indent) { $0.update(repeating: UInt8(ascii: " "), count: indent) }
    }

    /// A literal's bytes in one copy (`+= "…".utf8` went through the string's UTF-8 view a byte at a time).
    private mutating func write(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        makeRoom(for: source.count)
        (storage + count).update(from: start, count: source.count)
        count += source.count
    }

    /// `length` bytes written by `body` into the room after what is written.
    private mutating func write(count length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        makeRoom(for: length)
        body(storage + count)
        count += length
    }

    private mutating func append(_ byte: UInt8) {
        makeRoom(for: 1)
        storage[count] = byte
        count += 1
    }

    /// Room for `needed` more bytes. The check is written into each write; the
    /// rest, rarely needed, is not (called, the check cost 7 M instructions of a
    /// 10.8 MB feed's JSON).
    @inline(__always)
    private mutating func makeRoom(for needed: Int) {
        if count + needed > capacity { makeMoreRoom(for: needed) }
    }

    /// What is written handed to the drain if there is one, and the storage
    /// at least doubled if that leaves too little room.
    @inline(never)
    private mutating func makeMoreRoom(for needed: Int) {
        if drain != nil {
            drainWritten()
            if needed <= capacity { return }
        }
        capacity += max(needed, capacity)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = grown
    }

    /// What is written handed to the drain, and the storage free again.
    private mutating func drainWritten() {
        guard let drain, count > 0 else { return }
        drain(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }
}
