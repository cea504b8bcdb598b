import Foundation

/// The newest release's notes from the app's AppStream metainfo, as the
/// About window shows them: its version and its `<description>` as the
/// markup AdwAboutWindow takes (`<p>`, `<ul>`, `<ol>`, `<li>`, `<em>`,
/// `<code>`). The installed metainfo carries each translated paragraph
/// beside its original with `xml:lang`; the first of `languages` that has a
/// translation of it wins, else the original.
public struct ReleaseNotes: Equatable, Sendable {
    public let version: String
    public let markup: String

    public init(version: String, markup: String) {
        self.version = version
        self.markup = markup
    }

    /// The first `<release>` of `metainfo` (AppStream lists the newest
    /// first), or nil if there is none or it has no version.
    /// - Parameter languages: the user's, best first, as gettext orders them (`de_DE`, `de`).
    public init?(metainfo: Data, languages: [String]) {
        let collector = ReleaseCollector()
        _ = XMLStreamReader.read(metainfo, into: collector)
        guard let release = collector.release, let version = release.attributes["version"] else { return nil }
        self.version = version
        let description = release.children.lazy.compactMap(\.element).first { $0.name == "description" }
        markup = description.map { Self.markup(of: $0.children, keepsSpaces: false, languages: languages) } ?? ""
    }

    private static let allowed: Set = ["p", "ul", "ol", "li", "em", "code"]

    /// - Parameter keepsSpaces: false between blocks (in `<description>`,
    ///   `<ul>`, `<ol>`), where whitespace is the XML's layout; true in text.
    private static func markup(of nodes: [MarkupNode], keepsSpaces: Bool, languages: [String]) -> String {
        var result = ""
        let content = keepsSpaces ? nodes : nodes.filter {
            if case .text(let text) = $0 { return !text.allSatisfy(\.isWhitespace) }
            return true
        }
        for node in chooseLanguage(content, languages: languages) {
            switch node {
            case .text(let text):
                // As AppStream reads it: a run of whitespace is one space.
                result += escaped(text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression))
            case .element(let element) where allowed.contains(element.name):
                let inner = markup(of: element.children, keepsSpaces: element.name != "ul" && element.name != "ol",
                                   languages: languages)
                result += "<\(element.name)>\(inner)</\(element.name)>"
            case .element:
                continue
            }
        }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Each original with the translations that follow it becomes one of
    /// them: the translation into the earliest of `languages`, else the
    /// original. (Translations sit only between blocks, where no text is.)
    private static func chooseLanguage(_ elements: [MarkupNode], languages: [String]) -> [MarkupNode] {
        var chosen: [MarkupNode] = []
        var index = elements.startIndex
        while index < elements.endIndex {
            let node = elements[index]
            index += 1
            guard case .element(let original) = node, original.language == nil else {
                if case .text = node { chosen.append(node) }
                continue
            }
            var translations: [MarkupElement] = []
            while index < elements.endIndex, case .element(let next) = elements[index], next.name == original.name,
                  next.language != nil {
                translations.append(next)
                index += 1
            }
            let best = languages.lazy.compactMap { language in translations.first { $0.language == language } }.first
            chosen.append(.element(best ?? original))
        }
        return chosen
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// A node of the release being read: text, or an element with its children.
enum MarkupNode {
    case text(String)
    case element(MarkupElement)

    var element: MarkupElement? {
        if case .element(let element) = self { element } else { nil }
    }
}

final class MarkupElement {
    let name: String
    let language: String?
    let attributes: [String: String]
    var children: [MarkupNode] = []

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
        language = attributes["xml:lang"]
    }
}

/// What `ReleaseNotes` hands `XMLStreamReader`: the first `<release>` under
/// `<releases>`, as a small tree.
final class ReleaseCollector: XMLEventHandler {
    private(set) var release: MarkupElement?
    private var open: [MarkupElement] = []
    private var path: [String] = []
    private var pendingText: [UInt8] = []
    var wantsText: Bool { !open.isEmpty }
    private(set) var wantsToStop = false

    func startElement(_ name: XMLName, attributes: borrowing XMLAttributes) {
        path.append(name.localName)
        if open.isEmpty {
            guard release == nil, path.suffix(2) == ["releases", "release"] else { return }
            let element = MarkupElement(name: name.localName, attributes: attributes.dictionary)
            release = element
            open = [element]
            return
        }
        flushText()
        let element = MarkupElement(name: name.localName, attributes: attributes.dictionary)
        open.last?.children.append(.element(element))
        open.append(element)
    }

    func endElement() {
        path.removeLast()
        guard !open.isEmpty else { return }
        flushText()
        open.removeLast()
        if open.isEmpty { wantsToStop = true }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        pendingText.append(contentsOf: bytes)
    }

    func issue(code: Int, line: Int, column: Int) {}

    private func flushText() {
        guard !pendingText.isEmpty else { return }
        open.last?.children.append(.text(String(decoding: pendingText, as: UTF8.self)))
        pendingText.removeAll()
    }
}
