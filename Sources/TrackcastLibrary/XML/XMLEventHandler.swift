/// What a document's reader is told by `XMLStreamReader` (or, alike, by
/// `XMLByteReader`), in document order.
/// Called on the thread that runs the reader, one call at a time.
protocol XMLEventHandler: AnyObject {
    /// Whether text from here on is wanted: characters are made into Swift
    /// strings only then, which is most of what reading a feed saves by
    /// skipping what it does not keep.
    var wantsText: Bool { get }
    /// Set to stop reading the rest of the document (a web page, not a feed).
    var wantsToStop: Bool { get }

    func startElement(_ name: XMLName, attributes: borrowing XMLAttributes)
    func endElement()
    /// Character data or a CDATA section's contents as UTF-8, in pieces of any
    /// size, valid only during the call: a handler gathers the pieces and makes
    /// one string of them, not one per piece.
    func text(_ bytes: UnsafeBufferPointer<UInt8>)
    /// An error or warning libxml2 reported; reading goes on (recovery mode)
    /// unless the handler stops it.
    func issue(code: Int, line: Int, column: Int)
    /// Where in the document's bytes the next `startElement` or `endElement`
    /// is: the offset of a start tag's `<`, or the offset just past an end
    /// tag's `>` (or an empty element's `/>`). Told just before that event,
    /// by `XMLByteReader` only: libxml2's reader does not say.
    func tagBoundary(at offset: Int)
}

extension XMLEventHandler {
    func tagBoundary(at offset: Int) {}
}
