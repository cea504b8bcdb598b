import Foundation
import Testing
@testable import TrackcastLibrary

/// Records what `XMLStreamReader` reports, wanting text only inside elements
/// named in `textElements`, and stopping at an element named `stopAt`.
private final class Recorder: XMLEventHandler {
    var textElements: Set<String> = []
    var stopAt: String?
    var starts: [XMLName] = []
    var attributeSets: [[String: String]] = []
    var attributeValues: [XMLAttributeValues] = []
    /// `attributes[name]` for each of `lookedUp`, asked during the callback.
    var lookUps: [[String: String]] = []
    /// The same of one `XMLAttributeValues` refilled at each element (`copy(into:)`), as the feed handler keeps one.
    var refilledLookUps: [[String: String]] = []
    private var refilled = XMLAttributeValues()
    var lookedUp: [StaticString] = []
    var xmlBases: [String?] = []
    var texts: [String] = []
    var issues: [(code: Int, line: Int)] = []
    private var open: [String] = []

    var wantsText: Bool { open.last.map(textElements.contains) ?? false }
    var wantsToStop: Bool { stopAt != nil && starts.last?.localName == stopAt }

    func startElement(_ name: XMLName, attributes: borrowing XMLAttributes) {
        starts.append(name)
        attributeSets.append(attributes.dictionary)
        attributeValues.append(attributes.values)
        var found: [String: String] = [:]
        for name in lookedUp { found[name.description] = attributes[name] }
        lookUps.append(found)
        attributes.copy(into: &refilled)
        var foundRefilled: [String: String] = [:]
        for name in lookedUp { foundRefilled[name.description] = refilled[name] }
        refilledLookUps.append(foundRefilled)
        xmlBases.append(attributes.value(localName: "base", prefix: "xml"))
        open.append(name.localName)
    }

    func endElement() { open.removeLast() }
    func text(_ bytes: UnsafeBufferPointer<UInt8>) { texts.append(String(decoding: bytes, as: UTF8.self)) }
    func issue(code: Int, line: Int, column: Int) { issues.append((code, line)) }

    func read(_ document: String) {
        XMLStreamReader.read(Data(document.utf8), into: self)
    }
}

@Suite("XML stream reader (libxml2 SAX2)")
struct XMLStreamReaderTests {
    @Test("names come with their prefix and namespace; an undeclared prefix has no namespace")
    func names() {
        let recorder = Recorder()
        recorder.read("""
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><itunes:author/><podcast:guid/><title/></rss>
            """)
        let names = recorder.starts.map { "\($0.prefix ?? "-") \($0.localName) \($0.namespaceURI ?? "-")" }
        #expect(names == [
            "- rss -",
            "itunes author http://www.itunes.com/dtds/podcast-1.0.dtd",
            "podcast guid -",
            "- title -",
        ])
        #expect(recorder.issues.map(\.code) == [201])  // XML_NS_ERR_UNDEFINED_NAMESPACE
    }

    @Test("a name met again is the same name, numbered in order of first use; one differing only in prefix or namespace is another")
    func nameIdentity() {
        let recorder = Recorder()
        // More distinct names than the reader's table first holds, each used twice.
        let many = (0..<300).map { "<n\($0)/>" }.joined()
        recorder.read("""
            <r xmlns:a="urn:a" xmlns:b="urn:b" xmlns:c="urn:a"><x/><a:x/><b:x/><c:x/><x/><a:x/><b:x/><c:x/>\
            <y xmlns="urn:a"><x/><a:x/></y>\(many)\(many)</r>
            """)
        let keys = recorder.starts.map { "\($0.prefix ?? "-") \($0.localName) \($0.namespaceURI ?? "-")" }
        let xs = ["- x -", "a x urn:a", "b x urn:b", "c x urn:a"]
        let ns = (0..<300).map { "- n\($0) -" }
        #expect(keys == ["- r -"] + xs + xs + ["- y urn:a", "- x urn:a", "a x urn:a"] + ns + ns)
        var firstUse: [String: XMLName] = [:]
        var order: [String] = []
        for (key, name) in zip(keys, recorder.starts) {
            if let first = firstUse[key] {
                #expect(first === name, "\(key)")
            } else {
                firstUse[key] = name
                order.append(key)
            }
        }
        #expect(order.count == 1 + 4 + 2 + 300)  // r; x, a:x, b:x, c:x; y and its default-namespace x; n0 to n299
        #expect(order.map { firstUse[$0]!.index } == Array(order.indices))
    }

    @Test("the feed handler's attribute list, and a look-up in place, answer as the dictionary does")
    func attributeValues() throws {
        let recorder = Recorder()
        let names: [StaticString] = ["x", "p:x", "q:x", "empty", "xml:base", "base", "url", "type", "y", "p", ":x", "X", "xx", "p:", "p:xx"]
        recorder.lookedUp = names
        // libxml2 reports an attribute given twice and passes both on.
        recorder.read("""
            <a xmlns:p="urn:p" xmlns:q="urn:q" x="1&amp;2" p:x="p" q:x="q" empty="" xml:base="b"><b/><c url=" u " type="t"/>\
            <d x="first" x="last" p:x="1" p:x="2"/></a>
            """)
        #expect(recorder.attributeValues.count == recorder.attributeSets.count)
        #expect(recorder.attributeSets.last?["x"] == "last")
        for (index, dictionary) in recorder.attributeSets.enumerated() {
            for name in names {
                #expect(recorder.attributeValues[index][name] == dictionary[name.description], "\(name)")
                #expect(recorder.lookUps[index][name.description] == dictionary[name.description], "\(name) in place")
                #expect(recorder.refilledLookUps[index][name.description] == dictionary[name.description], "\(name) refilled")
            }
        }
        var repeated = XMLAttributeValues()
        for (name, value) in [("x", "first"), ("y", "other"), ("x", "last")] {
            Array(name.utf8).withUnsafeBufferPointer { name in
                Array(value.utf8).withUnsafeBufferPointer { value in
                    repeated.append(prefix: UnsafeBufferPointer(start: nil, count: 0), local: name, value: value)
                }
            }
        }
        #expect(repeated["x"] == "last")  // as the dictionary keeps a name's last value
    }

    @Test("attributes by qualified name, entities and character references decoded; xml:base found by prefix")
    func attributes() {
        let recorder = Recorder()
        recorder.read("""
            <a xmlns:p="urn:p" x="1&amp;2&#38;3&lt;" p:y="v" xml:base="https://example.org/"><b base="no"/>\
            <c xml:base="first/" xml:base="last/"/></a>
            """)
        #expect(recorder.attributeSets == [
            ["x": "1&2&3<", "p:y": "v", "xml:base": "https://example.org/"],
            ["base": "no"],
            ["xml:base": "last/"],
        ])
        #expect(recorder.xmlBases == ["https://example.org/", nil, "last/"], "a base given twice keeps its last value")
    }

    @Test("text, entities and CDATA are delivered only while the handler wants them")
    func textOnlyWhenWanted() {
        let recorder = Recorder()
        recorder.textElements = ["keep"]
        recorder.read("<r>skip<keep>a &amp; b<![CDATA[ <c> ]]>&#233;</keep>skip too<drop>no</drop></r>")
        #expect(recorder.texts.joined() == "a & b <c> é")
    }

    @Test("entities declared in the document are never expanded, and external ones never read")
    func declaredEntitiesStayUnexpanded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("xml-reader-secret-\(getpid())")
        try Data("SECRET-CONTENT".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let recorder = Recorder()
        recorder.textElements = ["r"]
        recorder.read("""
            <!DOCTYPE r [<!ENTITY inner "EXPANDED"><!ENTITY outer SYSTEM "\(secret.absoluteString)">]>
            <r a="&inner;">&inner;&outer;</r>
            """)
        let everything = recorder.texts.joined() + (recorder.attributeSets.first?.values.joined() ?? "")
        #expect(!everything.contains("EXPANDED"))
        #expect(!everything.contains("SECRET"))
        #expect(recorder.starts.map(\.localName) == ["r"])
    }

    @Test("a handler that stops hears nothing after")
    func stop() {
        let recorder = Recorder()
        recorder.stopAt = "html"
        recorder.read("<html><head/><body><p/></body></html>")
        #expect(recorder.starts.map(\.localName) == ["html"])
    }

    @Test("errors arrive with libxml2's code and line, and reading goes on past them")
    func errors() {
        let recorder = Recorder()
        recorder.read("<a>\n<b>\n</a>\n<c/>")
        #expect(recorder.issues.first?.code == 76)  // XML_ERR_TAG_NAME_MISMATCH
        #expect(recorder.issues.first?.line == 3)
        #expect(recorder.starts.map(\.localName) == ["a", "b", "c"])
    }
}
