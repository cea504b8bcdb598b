import Foundation
// The xml-readers fuzz target compiles this file into one module with the library's sources.
#if canImport(TrackcastLibrary)
@testable import TrackcastLibrary
#endif

/// Everything a reader tells its handler, written down so that two readers'
/// accounts compare as strings: each name with its prefix, namespace and
/// number, each attribute as laid out, the text between events joined (the
/// readers may cut it into pieces differently), and libxml2's issues.
final class EventLog: XMLEventHandler {
    var events: [String] = []
    var issues: [Int] = []
    private var text: [UInt8] = []
    /// Text is asked for only inside an element whose local name starts with
    /// one of these (all when empty), so that both readers are held to
    /// handing on text just while it is wanted.
    private let textElements: [String]
    private var open: [String] = []

    init(textElements: [String] = []) {
        self.textElements = textElements
    }

    var wantsText: Bool {
        textElements.isEmpty || open.last.map { name in textElements.contains { name.hasPrefix($0) } } ?? false
    }
    var wantsToStop: Bool { open.last == "stop" }

    func startElement(_ name: XMLName, attributes: borrowing XMLAttributes) {
        flushText()
        let attributeList = attributes.values
        let dictionary = attributes.dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        events.append("start \(name.index) \(name.prefix ?? "-"):\(name.localName) {\(name.namespaceURI ?? "-")} \(dictionary)"
                      + " base=\(attributes.value(localName: "base", prefix: "xml") ?? "-") href=\(attributeList["href"] ?? "-")")
        open.append(name.localName)
    }

    func endElement() {
        flushText()
        events.append("end")
        open.removeLast()
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        text.append(contentsOf: bytes)
    }

    func issue(code: Int, line: Int, column: Int) {
        issues.append(code)
    }

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
