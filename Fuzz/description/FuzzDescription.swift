import Foundation

/// libFuzzer entry for `SafeMarkup`: any text, as HTML and as plain text,
/// must come out as markup that is well-formed and holds only `<b>`, `<i>`
/// and `<a href>` to an http(s) or mailto address. Anything else traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDescription(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    for markup in [SafeMarkup.fromHTML(text), SafeMarkup.fromPlainText(text)] {
        let checker = MarkupChecker()
        XMLStreamReader.read(Data("<markup>\(markup)</markup>".utf8), into: checker)
        if let problem = checker.problem {
            fatalError("unsafe markup (\(problem)) from \(text.debugDescription): \(markup.debugDescription)")
        }
    }
    return 0
}

final class MarkupChecker: XMLEventHandler {
    var problem: String?
    let wantsText = false
    let wantsToStop = false

    func startElement(_ element: XMLName, attributes: borrowing XMLAttributes) {
        let name = element.qualifiedName
        let attributes = attributes.dictionary
        // libxml2 hands namespace declarations over apart from attributes: one shows as a namespace.
        if let namespace = element.namespaceURI { problem = problem ?? "namespace \(namespace) on <\(name)>" }
        switch name {
        case "markup", "b", "i":
            if !attributes.isEmpty { problem = problem ?? "attributes on <\(name)>" }
        case "a":
            let href = attributes["href"] ?? ""
            let scheme = href.prefix { $0 != ":" }.lowercased()
            if attributes.count != 1 || !["http", "https", "mailto"].contains(scheme) { problem = problem ?? "link \(attributes)" }
        default:
            problem = problem ?? "element <\(name)>"
        }
    }

    func endElement() {}
    func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
    func issue(code: Int, line: Int, column: Int) {
        problem = problem ?? "not well-formed (libxml2 error \(code))"
    }
}
