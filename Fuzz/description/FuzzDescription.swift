import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// libFuzzer entry for `SafeMarkup`: any text, as HTML and as plain text,
/// must come out as markup that is well-formed and holds only `<b>`, `<i>`
/// and `<a href>` to an http(s) or mailto address. Anything else traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDescription(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    for markup in [SafeMarkup.fromHTML(text), SafeMarkup.fromPlainText(text)] {
        let checker = MarkupChecker()
        let parser = XMLParser(data: Data("<markup>\(markup)</markup>".utf8))
        parser.delegate = checker
        guard parser.parse(), checker.problem == nil else {
            fatalError("unsafe markup (\(checker.problem ?? "not well-formed")) from \(text.debugDescription): \(markup.debugDescription)")
        }
    }
    return 0
}

final class MarkupChecker: NSObject, XMLParserDelegate {
    var problem: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        switch name {
        case "markup", "b", "i":
            if !attributes.isEmpty { problem = "attributes on <\(name)>" }
        case "a":
            let href = attributes["href"] ?? ""
            let scheme = href.prefix { $0 != ":" }.lowercased()
            if attributes.count != 1 || !["http", "https", "mailto"].contains(scheme) { problem = "link \(attributes)" }
        default:
            problem = "element <\(name)>"
        }
    }
}
