import CTrackcastText
import Foundation

/// Reads a well-formed document of the plain kind feeds are, byte by byte,
/// and tells an `XMLEventHandler` what libxml2 would (`XMLStreamReader`):
/// the same names with the same namespaces, numbered alike; the same
/// attributes, normalised alike; the same text, in pieces of other sizes.
/// libxml2 was about a third of a realistic feed's parse, and most of its
/// time goes to generality a feed does not use (input buffers, encodings,
/// DTDs, recovery): this scans the document in place.
///
/// It reads only what it reads exactly as libxml2 does, and gives up on the
/// rest, so that every error, its line and column, and libxml2's recovery
/// stay libxml2's: `read` returns `nil` and the caller starts again with
/// `XMLStreamReader` and a fresh handler. Given up on: a document type
/// declaration or processing instruction (bar the declaration
/// `UntrustedXMLFilter` writes), any well-formedness error, a character XML
/// forbids, an entity other than XML's five and valid character references,
/// a name outside ASCII, an undeclared prefix, a namespace URI libxml2 might
/// warn about, an attribute given twice, nesting past libxml2's limits.
/// Everything it does is linear in the document's length (an element with
/// very many attributes, which it would check pairwise, and very many
/// namespace bindings in scope, which it would search at every element, are
/// given up on too).
///
/// The document must be valid UTF-8 (what `FeedInputDecoder` hands on): bytes
/// of text are passed on as they stand, cut only at ASCII bytes (the handler
/// makes them into strings without checking them again).
/// A struct, not a class: a class's properties are checked for exclusive
/// access at run time on every use, which cost more than the scanning.
/// A call to a non-mutating method from a mutating one copies the whole
/// reader (160 bytes) first: the helpers called at every tag are inlined, or
/// (where Swift would not inline them) `mutating` though they change
/// nothing, so that they are handed the reader in place; the copies were
/// 11 M instructions of a 10 MB feed's parse, and a copy per entity
/// reference (for its closure) a quarter of a feed of escaped HTML's.
struct XMLByteReader {
    /// The document holds something read only by libxml2.
    struct Unsupported: Error {}

    private let handler: any XMLEventHandler
    private let bytes: UnsafeBufferPointer<UInt8>
    private let classes: UnsafeBufferPointer<UInt8>
    private var names = ByteKeyTable<XMLName>()
    /// Attribute names' parts as C strings, as `XMLAttributes` reads them.
    private var attributeNames = ByteKeyTable<CString>()
    /// Namespace URIs in the order first declared, so an URI is known by its index.
    private var uris: [(string: String, cString: CString)] = []
    private var uriIndices: [String: Int] = [:]
    private var bindings: [NamespaceBinding] = []
    private var open: [OpenElement] = []
    /// The start tag being read: its attributes, and the values that had to be decoded.
    private var pending: [PendingAttribute] = []
    private var decodedValues: [UInt8] = []
    private var fields: [UnsafePointer<UInt8>?] = []
    private let xmlNamespace = CString("http://www.w3.org/XML/1998/namespace")

    /// libxml2 refuses deeper nesting without `XML_PARSE_HUGE`.
    private static let maxDepth = 255
    /// libxml2 (without `XML_PARSE_HUGE`) refuses names longer than 50,000
    /// bytes and texts, comments and values longer than 10,000,000 bytes
    /// (`XML_MAX_TEXT_LENGTH`, counted a little differently in its versions
    /// and paths); below both. Sections up to 9.5 MB, not 8 MB as before: show
    /// notes of 8 MiB (a hostile feed's, the bench's) went to libxml2 for their
    /// size alone, which was most of the time their parse took.
    private static let maxNameLength = 1_000
    private static let maxSectionLength = 9_500_000
    /// Past this, checking attributes pairwise for repeats would not be linear.
    private static let maxAttributes = 64
    /// Past this many namespace bindings in scope, looking a prefix up among
    /// them at every element would not be linear either (a feed binds a dozen).
    private static let maxBindings = 256

    private init(handler: any XMLEventHandler, bytes: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>) {
        self.handler = handler
        self.bytes = bytes
        self.classes = classes
    }

    /// Reads `document` to its end, or until the handler stops it, and returns
    /// the index where reading stopped (its line and column are
    /// `position(of:in:)`, counted only if asked for: a feed read to its end
    /// never is, and counting a 10 MB feed's lines cost 1 % of its parse);
    /// `nil` if the document holds something only libxml2 reads: `handler`
    /// has then had some of the document's events and must be thrown away.
    static func read(_ document: Data, into handler: any XMLEventHandler) -> Int? {
        document.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return ByteClass.table.withUnsafeBufferPointer { classes in
                var reader = XMLByteReader(handler: handler, bytes: bytes, classes: classes)
                return try? reader.document()
            }
        }
    }

    /// Line and column (from 1) of the byte at `index` in `document`.
    static func position(of index: Int, in document: Data) -> (line: Int, column: Int) {
        document.withUnsafeBytes { raw in
            var line = 1
            var lineStart = 0
            var i = 0
            while i < index, let base = raw.baseAddress, let found = memchr(base + i, 0x0A, index - i) {
                i = base.distance(to: UnsafeRawPointer(found)) + 1
                line += 1
                lineStart = i
            }
            return (line, index - lineStart + 1)
        }
    }

    // MARK: The document

    /// The index where reading stopped.
    private mutating func document() throws(Unsupported) -> Int {
        var i = 0
        if startsWith("\u{FEFF}", at: i) { i += 3 }
        if startsWith(#"<?xml version="1.0" encoding="UTF-8"?>"#, at: i) { i += 38 }
        i = try miscellany(from: i)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { throw Unsupported() }  // no root
        i = try startTag(at: i)
        while !open.isEmpty {
            if handler.wantsToStop { return i }
            i = try content(from: i)
            guard i + 1 < bytes.count else { throw Unsupported() }  // cut off
            switch bytes[i + 1] {
            case UInt8(ascii: "/"): i = try endTag(at: i)
            case UInt8(ascii: "!"):
                if startsWith("<!--", at: i) {
                    i = try comment(at: i)
                } else if startsWith("<![CDATA[", at: i) {
                    i = try cdata(at: i)
                } else {
                    throw Unsupported()
                }
            default: i = try startTag(at: i)
            }
        }
        if handler.wantsToStop { return i }
        i = try miscellany(from: i)
        guard i == bytes.count else { throw Unsupported() }  // content after the root
        return i
    }

    /// Whitespace and comments before or after the root: the index of what follows.
    @inline(__always)
    private func miscellany(from start: Int) throws(Unsupported) -> Int {
        var i = start
        while true {
            while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
            guard startsWith("<!--", at: i) else { return i }
            i = try comment(at: i)
        }
    }

    // MARK: Content

    /// Text from `start` up to the next `<` (whose index it returns), handed on.
    @inline(__always)
    private mutating func content(from start: Int) throws(Unsupported) -> Int {
        var i = start
        var run = start
        while true {
            i = runEnd(of: .text, from: i)
            guard i < bytes.count else {
                deliver(run, i)
                return i
            }
            switch bytes[i] {
            case UInt8(ascii: "<"):
                deliver(run, i)
                return i
            case UInt8(ascii: "&"):
                deliver(run, i)
                i = try reference(at: i) { [handler] scalar in Self.deliver(scalar, to: handler) }
                run = i
            case 0x0D:
                i = lineEnd(at: i, run: run)
                run = i
            case UInt8(ascii: "]"):
                if startsWith("]]>", at: i) { throw Unsupported() }
                i += 1
            default:
                i = try pastCharacterCheck(at: i)
            }
        }
    }

    /// A CR ends a line as LF would (CR LF as one LF), as XML has it: hands on
    /// the text before it, and the LF when none follows. Where text goes on.
    private func lineEnd(at i: Int, run: Int) -> Int {
        deliver(run, i)
        if i + 1 < bytes.count, bytes[i + 1] == 0x0A { return i + 1 }
        deliver(Self.lineFeed)
        return i + 1
    }

    private static let lineFeed: StaticString = "\n"

    private func deliver(_ start: Int, _ end: Int) {
        guard end > start, handler.wantsText else { return }
        handler.text(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    private func deliver(_ text: StaticString) {
        guard handler.wantsText else { return }
        handler.text(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func deliver(_ scalar: UInt32, to handler: any XMLEventHandler) {
        guard handler.wantsText else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            let count = Self.encode(scalar, into: buffer)
            handler.text(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The entity or character reference at `start` (`&`), its value given to
    /// `emit`: the index after it.
    @inline(__always)
    private func reference(at start: Int, _ emit: (UInt32) -> Void) throws(Unsupported) -> Int {
        var i = start + 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "#") {
            i += 1
            var value: UInt32 = 0
            let hex = i < bytes.count && bytes[i] == UInt8(ascii: "x")
            if hex { i += 1 }
            let digits = i
            while i < bytes.count, i - digits < 8 {
                let byte = bytes[i]
                if byte >= 0x30 && byte <= 0x39 {
                    value = value * (hex ? 16 : 10) + UInt32(byte - 0x30)
                } else if hex, (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66 {
                    value = value * 16 + UInt32((byte | 0x20) - 0x61 + 10)
                } else {
                    break
                }
                i += 1
            }
            guard i > digits, i < bytes.count, bytes[i] == UInt8(ascii: ";"), Self.isXMLCharacter(value) else { throw Unsupported() }
            emit(value)
            return i + 1
        }
        let value: UInt32
        if startsWith("lt;", at: i) { value = 0x3C; i += 3 }
        else if startsWith("gt;", at: i) { value = 0x3E; i += 3 }
        else if startsWith("amp;", at: i) { value = 0x26; i += 4 }
        else if startsWith("apos;", at: i) { value = 0x27; i += 5 }
        else if startsWith("quot;", at: i) { value = 0x22; i += 5 }
        else { throw Unsupported() }  // left to libxml2, and after it to `XMLEntityRepair`
        emit(value)
        return i
    }

    /// XML's `Char`: what a character reference may name.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Past a byte every scan stops at besides its own: 0xEF, unless it starts
    /// U+FFFE or U+FFFF (EF BF BE, EF BF BF), which are no XML characters; a
    /// control character XML forbids is left to libxml2.
    private func pastCharacterCheck(at i: Int) throws(Unsupported) -> Int {
        guard bytes[i] == 0xEF, !(i + 2 < bytes.count && bytes[i + 1] == 0xBF && bytes[i + 2] & 0xFE == 0xBE) else {
            throw Unsupported()
        }
        return i + 1
    }

    /// `scalar` as UTF-8 at the start of `buffer` (four bytes): its length.
    private static func encode(_ scalar: UInt32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            buffer[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            buffer[0] = UInt8(0xC0 | scalar >> 6)
            buffer[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            buffer[0] = UInt8(0xE0 | scalar >> 12)
            buffer[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            buffer[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            buffer[0] = UInt8(0xF0 | scalar >> 18)
            buffer[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            buffer[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            buffer[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// `<![CDATA[ … ]]>` at `start`, its text handed on as written (libxml2
    /// leaves a CR there a CR): the index after it.
    @inline(__always)
    private func cdata(at start: Int) throws(Unsupported) -> Int {
        let end = try sectionEnd(from: start + 9, start: start, .cdata, "]]>")
        deliver(start + 9, end)
        return end + 3
    }

    /// `<!-- … -->` at `start`: the index after it.
    @inline(__always)
    private func comment(at start: Int) throws(Unsupported) -> Int {
        try sectionEnd(from: start + 4, start: start, .comment, "-->") + 3
    }

    /// Where `terminator` (`]]>` or `-->`) starts, for a section begun at
    /// `start` whose text runs from `from`: its bytes checked for characters
    /// XML forbids, and `--` in a comment allowed only as its end.
    private func sectionEnd(from: Int, start: Int, _ kind: RunKind, _ terminator: StaticString) throws(Unsupported) -> Int {
        let first = terminator.utf8Start.pointee
        var i = from
        while true {
            i = runEnd(of: kind, from: i)
            guard i < bytes.count, i - start < Self.maxSectionLength else { throw Unsupported() }
            switch bytes[i] {
            case first:
                if startsWith(terminator, at: i) { return i }
                if first == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == first { throw Unsupported() }
                i += 1
            default:
                i = try pastCharacterCheck(at: i)
            }
        }
    }

    // MARK: Tags

    /// The start tag at `start` (`<`), handed on with its attributes (and its
    /// end, for an empty element): the index after it.
    private mutating func startTag(at start: Int) throws(Unsupported) -> Int {
        guard open.count < Self.maxDepth else { throw Unsupported() }
        let name = try qualifiedName(at: start + 1)
        var i = name.end
        // Emptied only when not empty: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`, some 60 instructions even on an empty array, and most tags have
        // no attributes (with the two below, 4 % of a realistic feed's parse).
        if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
        if !decodedValues.isEmpty { decodedValues.removeAll(keepingCapacity: true) }
        let isEmpty: Bool
        while true {
            let spaced = i < bytes.count && isWhitespace(bytes[i])
            while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
            guard i < bytes.count else { throw Unsupported() }
            if bytes[i] == UInt8(ascii: ">") {
                isEmpty = false
                i += 1
                break
            }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { throw Unsupported() }
                isEmpty = true
                i += 2
                break
            }
            guard spaced, pending.count < Self.maxAttributes else { throw Unsupported() }
            i = try attribute(at: i)
        }

        let bindingMark = bindings.count
        try declareNamespaces()
        let uri = try namespace(ofElementPrefix: name)
        let element = names.value(for: bytes[name.start..<name.end], tag: uri)
            ?? newName(name, uri: uri)
        handler.tagBoundary(at: start)
        try handOn(element)
        open.append(OpenElement(name: name.start..<name.end, bindingMark: bindingMark))
        if isEmpty, !handler.wantsToStop {
            return try endElement(at: i)
        }
        return i
    }

    /// The end tag at `start` (`</`), which must close the open element: the index after it.
    private mutating func endTag(at start: Int) throws(Unsupported) -> Int {
        // Compared with the open element's name as written, which was read as a name when it
        // opened: the bytes after it must end the name.
        guard let element = open.last, start + 2 + element.name.count < bytes.count,
              same(element.name, (start + 2)..<(start + 2 + element.name.count)) else { throw Unsupported() }
        var i = start + 2 + element.name.count
        while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw Unsupported() }
        return try endElement(at: i + 1)
    }

    private mutating func endElement(at i: Int) throws(Unsupported) -> Int {
        let element = open.removeLast()
        if element.bindingMark < bindings.count { bindings.removeSubrange(element.bindingMark...) }
        handler.tagBoundary(at: i)
        handler.endElement()
        return i
    }

    /// One attribute at `start` (its name), into `pending`: the index after its value.
    private mutating func attribute(at start: Int) throws(Unsupported) -> Int {
        let name = try qualifiedName(at: start)
        var i = name.end
        while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw Unsupported() }
        i += 1
        while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { throw Unsupported() }
        let quote = bytes[i]
        i += 1
        let valueStart = i
        // Decoded only once something in it needs to be: most values are taken as written.
        var decodedStart: Int?
        var run = i
        while true {
            i = runEnd(of: .value, from: i)
            guard i < bytes.count, i - valueStart < Self.maxSectionLength else { throw Unsupported() }
            let byte = bytes[i]
            if byte == quote { break }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                i += 1
            case UInt8(ascii: "&"):
                if decodedStart == nil { decodedStart = decodedValues.count }
                decodedValues.append(contentsOf: bytes[run..<i])
                var scalar: UInt32 = 0
                i = try reference(at: i) { scalar = $0 }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
                    decodedValues.append(contentsOf: buffer[..<Self.encode(scalar, into: buffer)])
                }
                run = i
            case 0x09, 0x0A, 0x0D:
                // Attribute-value normalisation: each whitespace character a space, CR LF one.
                if decodedStart == nil { decodedStart = decodedValues.count }
                decodedValues.append(contentsOf: bytes[run..<i])
                decodedValues.append(0x20)
                i += byte == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
                run = i
            default:
                i = try pastCharacterCheck(at: i)
            }
        }
        var value = PendingAttribute.Value.written(valueStart..<i)
        if let decodedStart {
            decodedValues.append(contentsOf: bytes[run..<i])
            value = .decoded(decodedStart..<decodedValues.count)
        }
        var declaredPrefix: Range<Int>?
        if let prefix = name.prefix {
            if holds(prefix, "xmlns") { declaredPrefix = name.local }
        } else if holds(name.local, "xmlns") {
            declaredPrefix = name.start..<name.start
        }
        pending.append(PendingAttribute(name: name, value: value, declaredPrefix: declaredPrefix))
        return i + 1
    }

    /// The `xmlns` and `xmlns:prefix` attributes of the start tag just read, bound.
    private mutating func declareNamespaces() throws(Unsupported) {
        let mark = bindings.count
        for attribute in pending {
            guard let prefix = attribute.declaredPrefix else { continue }
            guard bindings.count < Self.maxBindings else { throw Unsupported() }
            if holds(prefix, "xml") || holds(prefix, "xmlns") { throw Unsupported() }
            if bindings[mark...].contains(where: { same($0.prefix, prefix) }) { throw Unsupported() }
            let uri = value(of: attribute)
            guard Self.isPlainAbsoluteURI(uri) else { throw Unsupported() }
            let string = String(decoding: uri, as: UTF8.self)
            guard string != "http://www.w3.org/XML/1998/namespace", string != "http://www.w3.org/2000/xmlns/" else { throw Unsupported() }
            let index: Int
            if let known = uriIndices[string] {
                index = known
            } else {
                index = uris.count
                uris.append((string, CString(string)))
                uriIndices[string] = index
            }
            bindings.append(NamespaceBinding(prefix: prefix, uri: index))
        }
    }

    /// The namespace (an index into `uris`) of the element named `name`, or -1 for none.
    private mutating func namespace(ofElementPrefix name: QualifiedName) throws(Unsupported) -> Int {
        if let binding = binding(of: name.prefix ?? name.start..<name.start) { return binding.uri }
        // No default namespace is no namespace; a prefix must be declared (`xml` is left to libxml2).
        guard name.prefix == nil else { throw Unsupported() }
        return -1
    }

    /// The innermost binding of `prefix` (empty for the default namespace).
    @inline(__always)
    private func binding(of prefix: Range<Int>) -> NamespaceBinding? {
        var index = bindings.count - 1
        while index >= 0 {
            if same(bindings[index].prefix, prefix) { return bindings[index] }
            index -= 1
        }
        return nil
    }

    private mutating func newName(_ name: QualifiedName, uri: Int) -> XMLName {
        let element = XMLName(localName: String(decoding: bytes[name.local], as: UTF8.self),
                              prefix: name.prefix.map { String(decoding: bytes[$0], as: UTF8.self) },
                              namespaceURI: uri < 0 ? nil : uris[uri].string,
                              index: names.count)
        names.add(element, for: bytes[name.start..<name.end], tag: uri)
        return element
    }

    /// Calls the handler's `startElement` with the pending attributes laid out
    /// as libxml2 lays them out (see `XMLAttributes`), namespace declarations left out.
    private mutating func handOn(_ element: XMLName) throws(Unsupported) {
        // Out of `self` while it is laid out: the names' C strings are made meanwhile.
        var fields = self.fields
        self.fields = []
        defer { self.fields = fields }
        if !fields.isEmpty { fields.removeAll(keepingCapacity: true) }
        let decodedValues = self.decodedValues
        try decodedValues.withUnsafeBufferPointer { decoded throws(Unsupported) in
            for attribute in pending where attribute.declaredPrefix == nil {
                let uri: UnsafePointer<UInt8>?
                if let prefix = attribute.name.prefix {
                    if holds(prefix, "xml") {
                        uri = xmlNamespace.pointer
                    } else if let binding = binding(of: prefix) {
                        uri = uris[binding.uri].cString.pointer
                    } else {
                        throw Unsupported()  // undeclared
                    }
                } else {
                    uri = nil
                }
                let local = cString(bytes[attribute.name.local])
                // An attribute given twice (the same local name in the same namespace) is
                // an error libxml2 reports. Names are interned: pointers compare as names.
                var other = 0
                while other < fields.count {
                    if fields[other] == local && fields[other + 2] == uri { throw Unsupported() }
                    other += 5
                }
                let value: UnsafeBufferPointer<UInt8>
                switch attribute.value {
                case .written(let range): value = UnsafeBufferPointer(rebasing: bytes[range])
                case .decoded(let range): value = UnsafeBufferPointer(rebasing: decoded[range])
                }
                let start = value.baseAddress ?? bytes.baseAddress!
                fields.append(local)
                fields.append(attribute.name.prefix.map { cString(bytes[$0]) })
                fields.append(uri)
                fields.append(start)
                fields.append(start + value.count)
            }
            let count = Int32(fields.count / 5)
            fields.withUnsafeMutableBufferPointer { laidOut in
                handler.startElement(element, attributes: XMLAttributes(fields: laidOut.baseAddress, count: count))
            }
        }
    }

    private func value(of attribute: PendingAttribute) -> [UInt8] {
        switch attribute.value {
        case .written(let range): Array(bytes[range])
        case .decoded(let range): Array(decodedValues[range])
        }
    }

    /// A name's part as a C string, made once per document.
    private mutating func cString(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> UnsafePointer<UInt8> {
        if let known = attributeNames.value(for: part, tag: 0) { return known.pointer }
        let made = CString(String(decoding: part, as: UTF8.self))
        attributeNames.add(made, for: part, tag: 0)
        return made.pointer
    }

    /// An absolute URI of the plainest form (`scheme:` and then letters,
    /// digits, the punctuation URIs allow, a host with at most a numeric port):
    /// nothing libxml2's URI check could warn about.
    private static func isPlainAbsoluteURI(_ uri: [UInt8]) -> Bool {
        guard let first = uri.first, (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A else { return false }
        var i = 1
        while i < uri.count, isSchemeByte(uri[i]) { i += 1 }
        guard i < uri.count, uri[i] == UInt8(ascii: ":") else { return false }
        i += 1
        if i + 1 < uri.count, uri[i] == UInt8(ascii: "/"), uri[i + 1] == UInt8(ascii: "/") {
            i += 2
            let host = i
            while i < uri.count, isHostByte(uri[i]) { i += 1 }
            guard i > host else { return false }
            if i < uri.count, uri[i] == UInt8(ascii: ":") {
                i += 1
                let port = i
                while i < uri.count, uri[i] >= 0x30 && uri[i] <= 0x39 { i += 1 }
                guard i > port else { return false }
            }
            guard i == uri.count || uri[i] == UInt8(ascii: "/") else { return false }
        }
        var fragments = 0
        while i < uri.count {
            let byte = uri[i]
            if byte == UInt8(ascii: "#") {
                fragments += 1
                guard fragments == 1 else { return false }
            } else if byte == UInt8(ascii: "%") {
                guard i + 2 < uri.count, isHexDigit(uri[i + 1]), isHexDigit(uri[i + 2]) else { return false }
                i += 2
            } else if !isPathByte(byte) {
                return false
            }
            i += 1
        }
        return true
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "-._~:/?@!$&'()*+,;=".utf8.contains(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }

    // MARK: Names and bytes

    /// The index of the first byte at or after `start` that ends a run of `kind`, or the end.
    @inline(__always)
    private func runEnd(of kind: RunKind, from start: Int) -> Int {
        switch kind {
        case .text: tc_xml_text_run_end(bytes.baseAddress, bytes.count, start)
        case .value: tc_xml_value_run_end(bytes.baseAddress, bytes.count, start)
        case .cdata: tc_xml_cdata_run_end(bytes.baseAddress, bytes.count, start)
        case .comment: tc_xml_comment_run_end(bytes.baseAddress, bytes.count, start)
        }
    }

    /// `prefix:local` or `local` at `start`, both ASCII NCNames.
    @inline(__always)
    private mutating func qualifiedName(at start: Int) throws(Unsupported) -> QualifiedName {
        let firstEnd = try ncName(at: start)
        guard firstEnd < bytes.count, bytes[firstEnd] == UInt8(ascii: ":") else {
            return QualifiedName(start: start, end: firstEnd, prefix: nil, local: start..<firstEnd)
        }
        let localEnd = try ncName(at: firstEnd + 1)
        guard localEnd >= bytes.count || bytes[localEnd] != UInt8(ascii: ":") else { throw Unsupported() }
        return QualifiedName(start: start, end: localEnd, prefix: start..<firstEnd, local: (firstEnd + 1)..<localEnd)
    }

    private mutating func ncName(at start: Int) throws(Unsupported) -> Int {
        guard start < bytes.count, classes[Int(bytes[start])] & ByteClass.nameStart != 0 else { throw Unsupported() }
        var i = start + 1
        while i < bytes.count, classes[Int(bytes[i])] & ByteClass.name != 0 { i += 1 }
        // A name going on in bytes outside ASCII is left to libxml2.
        guard i - start <= Self.maxNameLength, i == bytes.count || bytes[i] < 0x80 else { throw Unsupported() }
        return i
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether the document holds the same bytes at `a` and `b`.
    private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, a.count) == 0)
    }

    private func holds(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        range.count == literal.utf8CodeUnitCount && memcmp(bytes.baseAddress! + range.lowerBound, literal.utf8Start, range.count) == 0
    }

    @inline(__always)
    private func startsWith(_ literal: StaticString, at start: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard start >= 0, start + count <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + start, literal.utf8Start, count) == 0
    }
}

/// What `XMLByteReader` scans for the end of, in C (`tc_xml_text_run_end` and its kin).
private enum RunKind {
    case text, value, cdata, comment
}

/// What a byte can be in a name, one table look-up each.
private enum ByteClass {
    static let nameStart: UInt8 = 1
    static let name: UInt8 = 2

    static let table: [UInt8] = (0...255).map { value in
        let byte = UInt8(value)
        var classes: UInt8 = 0
        let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
        let isDigit = byte >= 0x30 && byte <= 0x39
        if isLetter || byte == UInt8(ascii: "_") { classes |= nameStart | name }
        if isDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") { classes |= name }
        return classes
    }
}

/// A name as written in a tag, by its places in the document.
private struct QualifiedName {
    var start: Int
    var end: Int
    var prefix: Range<Int>?
    var local: Range<Int>
}

private struct PendingAttribute {
    enum Value {
        /// Taken as written, from the document.
        case written(Range<Int>)
        /// In `decodedValues`.
        case decoded(Range<Int>)
    }

    var name: QualifiedName
    var value: Value
    /// For `xmlns:prefix`, the prefix; for `xmlns`, an empty range; else nil.
    var declaredPrefix: Range<Int>?
}

/// A prefix (empty for the default namespace) bound to `uris[uri]`, where the document's bytes hold it.
private struct NamespaceBinding {
    var prefix: Range<Int>
    var uri: Int
}

private struct OpenElement {
    var name: Range<Int>
    /// `bindings.count` before the element's own declarations.
    var bindingMark: Int
}

/// A NUL-terminated copy of a string, for as long as this object lives.
private final class CString {
    let pointer: UnsafePointer<UInt8>

    init(_ string: String) {
        let utf8 = Array(string.utf8)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8.count + 1)
        storage.initialize(from: utf8, count: utf8.count)
        storage[utf8.count] = 0
        pointer = UnsafePointer(storage)
    }

    deinit {
        pointer.deallocate()
    }
}

/// Values by a run of bytes and a number (a name and its namespace): open
/// addressing on a hash of the bytes eight at a time, where a `Dictionary`
/// would want a key made of each run (an allocation per element) first. The
/// keys' bytes lie one after another in one array, and a look-up reads the
/// slots in place: an array of keys was a retain and release at each probe.
private struct ByteKeyTable<Value> {
    private struct Slot {
        var hash = 0
        var tag = 0
        /// The key's bytes in `keys`.
        var keyStart = 0
        var keyCount = 0
        var value: Value?
    }

    /// A power of two, at most half full.
    private var slots = [Slot](repeating: Slot(), count: 64)
    private var keys: [UInt8] = []
    private(set) var count = 0

    func value(for key: Slice<UnsafeBufferPointer<UInt8>>, tag: Int) -> Value? {
        let hash = Self.hash(key, tag)
        return slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                let mask = slots.count - 1
                var index = hash & mask
                while let value = slots[index].value {
                    let slot = slots[index]
                    if slot.hash == hash, slot.tag == tag, slot.keyCount == key.count,
                       key.isEmpty || memcmp(keys.baseAddress! + slot.keyStart, key.base.baseAddress! + key.startIndex, key.count) == 0 {
                        return value
                    }
                    index = (index + 1) & mask
                }
                return nil
            }
        }
    }

    /// Adds a value for a key not in the table.
    mutating func add(_ value: Value, for key: Slice<UnsafeBufferPointer<UInt8>>, tag: Int) {
        Self.insert(Slot(hash: Self.hash(key, tag), tag: tag, keyStart: keys.count, keyCount: key.count, value: value), into: &slots)
        keys.append(contentsOf: key)
        count += 1
        if count * 2 > slots.count {
            var grown = [Slot](repeating: Slot(), count: slots.count * 2)
            for slot in slots where slot.value != nil { Self.insert(slot, into: &grown) }
            slots = grown
        }
    }

    /// Static: a method on `self` would hold `self.slots` while it is
    /// changed, and each insert would copy the whole table.
    private static func insert(_ slot: Slot, into slots: inout [Slot]) {
        let mask = slots.count - 1
        var index = slot.hash & mask
        while slots[index].value != nil { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Eight bytes a step (a byte at a time was most of a look-up), each word
    /// multiplied in; the high half folded onto the low bits the mask keeps.
    private static func hash(_ key: Slice<UnsafeBufferPointer<UInt8>>, _ tag: Int) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bitPattern: Int64(tag)) &* multiplier ^ UInt64(key.count)
        guard let base = key.base.baseAddress.map({ UnsafeRawPointer($0 + key.startIndex) }) else { return Int(hash >> 1) }
        var i = 0
        while i + 8 <= key.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* multiplier
            hash ^= hash >> 32
            i += 8
        }
        var tail: UInt64 = 0
        while i < key.count {
            tail = tail << 8 | UInt64(base.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        hash = (hash ^ tail) &* multiplier
        return Int(truncatingIfNeeded: (hash ^ hash >> 32) >> 1)
    }
}
