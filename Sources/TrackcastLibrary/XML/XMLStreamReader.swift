import CLibXML2
import Foundation

/// Reads a whole XML document through libxml2's SAX2 push parser and tells an
/// `XMLEventHandler` what it finds. Foundation's `XMLParser` wraps the same
/// parser, but turns every name, attribute set and run of text into Swift
/// strings and dictionaries whether anyone wants them or not; at a feed's
/// size that costs more than libxml2's own parsing (see the feed
/// parsing row in docs/BENCHMARKS.md). This reader makes strings only for what the handler asks for.
///
/// Set up as `XMLParser` sets libxml2 up: recovery mode (errors are reported
/// and reading goes on; the handler decides what is fatal) and entity
/// substitution, without which libxml2 leaves `&#38;` unexpanded in attribute
/// values (so that a tree it builds can round-trip). Substitution is safe
/// because the only entities there can be are XML's five: libxml2 gets no
/// entity declaration or look-up callbacks, so a document's own entities are
/// never stored (tested with an internal and an external one), no DTD is ever
/// loaded (no `XML_PARSE_DTDLOAD`) nor anything fetched (`XML_PARSE_NONET`),
/// and callers strip the document type declaration anyway (`UntrustedXMLFilter`).
///
/// This file and `XMLAttributes` are the only places libxml2's pointers live.
/// One reader reads one document on one thread.
final class XMLStreamReader {
    private let handler: any XMLEventHandler
    private var context: xmlParserCtxtPtr?
    /// The document's element names, each made into Swift strings once.
    private var names = NameTable()
    /// Where reading stopped, once `read` returns.
    private(set) var line = 1
    private(set) var column = 1

    private init(handler: any XMLEventHandler) {
        self.handler = handler
    }

    /// Reads `document` to its end (or until the handler stops it). Returns
    /// the line and column where reading stopped.
    @discardableResult
    static func read(_ document: Data, into handler: any XMLEventHandler) -> (line: Int, column: Int) {
        _ = libraryReady
        let reader = XMLStreamReader(handler: handler)
        reader.parse(document)
        return (reader.line, reader.column)
    }

    /// libxml2's global set-up, which must run once before parsers start on
    /// several threads (a refresh parses feeds side by side) and may not run
    /// on two at once; Swift runs a static's initialiser exactly once.
    private static let libraryReady: Void = xmlInitParser()

    private func parse(_ document: Data) {
        var callbacks = Self.makeCallbacks()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        document.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: CChar.self)
            // The first bytes go in with the context, as libxml2 asks, for its encoding detection.
            let head = min(4, bytes.count)
            guard let context = xmlCreatePushParserCtxt(&callbacks, userData, bytes.baseAddress, Int32(head), nil) else { return }
            self.context = context
            defer {
                xmlFreeParserCtxt(context)
                self.context = nil
            }
            xmlCtxtUseOptions(context, Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue))
            let rest = UnsafeBufferPointer(rebasing: bytes[head...])
            // In one chunk, the last: libxml2 takes an Int32 length, far above
            // the largest feed a refresh accepts (`RefreshOptions.maxFeedBytes`).
            _ = xmlParseChunk(context, rest.baseAddress, Int32(clamping: rest.count), 1)
            updatePosition()
        }
    }

    private func updatePosition() {
        guard let input = context?.pointee.input else { return }
        line = Int(input.pointee.line)
        column = Int(input.pointee.col)
    }

    /// Apart from the look-up, which then only reads the table: a modifying
    /// access at every element costs more than a read (0.7 % of the bench feed's parse).
    private func newName(localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?,
                         uri: UnsafePointer<xmlChar>?) -> XMLName {
        let name = XMLName(localName: localName.map { String(cString: $0) } ?? "",
                           prefix: prefix.map { String(cString: $0) },
                           namespaceURI: uri.map { String(cString: $0) },
                           index: names.count)
        names.add(name, localName: localName, prefix: prefix, uri: uri)
        return name
    }

    private static func reader(_ userData: UnsafeMutableRawPointer?) -> XMLStreamReader {
        Unmanaged<XMLStreamReader>.fromOpaque(userData!).takeUnretainedValue()
    }

    private static func makeCallbacks() -> xmlSAXHandler {
        var callbacks = xmlSAXHandler()
        callbacks.initialized = UInt32(XML_SAX2_MAGIC)
        callbacks.startElementNs = { userData, localName, prefix, uri, _, _, attributeCount, _, attributes in
            let reader = XMLStreamReader.reader(userData)
            let name = reader.names.name(localName: localName, prefix: prefix, uri: uri)
                ?? reader.newName(localName: localName, prefix: prefix, uri: uri)
            reader.handler.startElement(name, attributes: XMLAttributes(fields: attributes, count: attributeCount))
            if reader.handler.wantsToStop, let context = reader.context {
                xmlStopParser(context)
            }
        }
        callbacks.endElementNs = { userData, _, _, _ in
            XMLStreamReader.reader(userData).handler.endElement()
        }
        let characters: charactersSAXFunc = { userData, bytes, length in
            let handler = XMLStreamReader.reader(userData).handler
            guard handler.wantsText, let bytes else { return }
            handler.text(UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        callbacks.characters = characters
        // The same callback, so libxml2 never decides which whitespace is ignorable.
        callbacks.ignorableWhitespace = characters
        callbacks.cdataBlock = characters
        callbacks.serror = { userData, error in
            guard let error else { return }
            let reader = XMLStreamReader.reader(userData)
            reader.updatePosition()
            reader.handler.issue(code: Int(error.pointee.code), line: reader.line, column: reader.column)
        }
        return callbacks
    }
}

/// Element names by libxml2's pointers to their three parts. libxml2 interns
/// every name, prefix and namespace URI in the parser's dictionary for the
/// life of the parse, each string once, so pointers compare as the strings
/// would. Open addressing on a multiplicative hash of the pointers: a look-up
/// is a few instructions where a `Dictionary` hashes each pointer through
/// SipHash, once per part.
private struct NameTable {
    typealias Pointer = UnsafePointer<xmlChar>

    private struct Slot {
        var localName: Pointer?
        var prefix: Pointer?
        var uri: Pointer?
        /// `nil` for an empty slot.
        var name: XMLName?
    }

    /// A power of two, at most half full.
    private var slots = [Slot](repeating: Slot(), count: 64)
    private(set) var count = 0

    /// The name for these parts, if they were met before.
    func name(localName: Pointer?, prefix: Pointer?, uri: Pointer?) -> XMLName? {
        let mask = slots.count - 1
        var index = Self.hash(localName, prefix, uri) & mask
        while let name = slots[index].name {
            let slot = slots[index]
            if slot.localName == localName && slot.prefix == prefix && slot.uri == uri { return name }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Adds a name not in the table, numbered `count`.
    mutating func add(_ name: XMLName, localName: Pointer?, prefix: Pointer?, uri: Pointer?) {
        let mask = slots.count - 1
        var index = Self.hash(localName, prefix, uri) & mask
        while slots[index].name != nil { index = (index + 1) & mask }
        slots[index] = Slot(localName: localName, prefix: prefix, uri: uri, name: name)
        count += 1
        if count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.name != nil {
            var index = Self.hash(slot.localName, slot.prefix, slot.uri) & mask
            while slots[index].name != nil { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    private static func hash(_ localName: Pointer?, _ prefix: Pointer?, _ uri: Pointer?) -> Int {
        let mixed = UInt(bitPattern: localName) &+ UInt(bitPattern: prefix) &* 31 &+ UInt(bitPattern: uri) &* 131
        // Fibonacci hashing: the product's high bits depend on all of the pointers' bits.
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}
