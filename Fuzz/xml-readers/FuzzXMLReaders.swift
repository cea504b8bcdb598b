import Foundation

/// libFuzzer entry comparing the two XML readers: any bytes, made UTF-8 as
/// `FeedInputDecoder` makes a feed, read by libxml2 (`XMLStreamReader`) and
/// by `XMLByteReader`. Where the byte reader reads a document at all, what
/// it told its handler must be what libxml2 tells, and libxml2 must have
/// found nothing wrong in it; a difference traps, which is a finding. Its
/// test twin (XMLByteReaderTests) runs fixed documents and mutations.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLReaders(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let document = FeedInputDecoder.prepared(Data(bytes: bytes, count: count), httpContentType: nil)
    // Text wanted everywhere, or only in elements whose name starts with "t".
    for textPrefix in ["", "t"] {
        let libxml2 = EventLog(textPrefix: textPrefix)
        XMLStreamReader.read(document, into: libxml2)
        let scanned = EventLog(textPrefix: textPrefix)
        guard XMLByteReader.read(document, into: scanned) != nil else { continue }
        precondition(libxml2.issues.isEmpty, "the byte reader read a document libxml2 reports \(libxml2.issues) in")
        let expected = libxml2.finished()
        let actual = scanned.finished()
        if actual != expected {
            let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
            fatalError("event \(index): \(index < actual.count ? actual[index] : "none") but libxml2: \(index < expected.count ? expected[index] : "none")")
        }
    }
    return 0
}

/// Every event as a line of text: names with prefix, namespace and number,
/// attributes as the handler sees them, text between events joined.
private final class EventLog: XMLEventHandler {
    var events: [String] = []
    var issues: [Int] = []
    private var text: [UInt8] = []
    private let textPrefix: String
    private var open: [String] = []

    init(textPrefix: String) {
        self.textPrefix = textPrefix
    }

    var wantsText: Bool { open.last?.hasPrefix(textPrefix) ?? false }
    var wantsToStop: Bool { open.last == "stop" }

    func startElement(_ name: XMLName, attributes: borrowing XMLAttributes) {
        flushText()
        let dictionary = attributes.dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        events.append("start \(name.index) \(name.prefix ?? "-"):\(name.localName) {\(name.namespaceURI ?? "-")} \(dictionary)"
                      + " base=\(attributes.value(localName: "base", prefix: "xml") ?? "-") href=\(attributes.values["href"] ?? "-")")
        open.append(name.localName)
    }

    func endElement() {
        flushText()
        events.append("end")
        open.removeLast()
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) { text.append(contentsOf: bytes) }
    func issue(code: Int, line: Int, column: Int) { issues.append(code) }

    func finished() -> [String] {
        flushText()
        return events
    }

    private func flushText() {
        guard !text.isEmpty else { return }
        events.append("text " + String(decoding: text, as: UTF8.self).debugDescription)
        text.removeAll()
    }
}
