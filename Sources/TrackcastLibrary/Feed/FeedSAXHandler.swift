import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One pass of `XMLParser` over a feed: turns SAX events into a `FeedDraft`
/// and `FeedEpisode`s, and records what went wrong. Used once per parse and
/// thrown away; confined to the calling thread for its whole life.
final class FeedSAXHandler: NSObject, XMLParserDelegate {
    private let feedURL: URL
    /// Local name of the document's root element, once seen.
    private(set) var rootElement: String?
    /// Whether that root is RSS `rss` or Atom `feed`.
    private(set) var isFeed = false
    private(set) var isRootClosed = false
    /// The first error that makes the feed unreadable.
    private(set) var fatalIssue: XMLParseIssue?
    private(set) var needsEntityRepair = false
    private(set) var feed = FeedDraft()
    private(set) var episodes: [FeedEpisode] = []
    /// Line and column where parsing stopped, for a feed that ends early without an error.
    private(set) var endPosition = (line: 1, column: 1)

    /// Set when the root showed this is no feed and parsing was stopped.
    private var isAborted = false
    private var stack: [FeedElement] = [.document]
    private var episode: EpisodeDraft?
    private var namespaces: [String: FeedNamespace] = [:]
    private var isCollectingText = false
    private var text = ""
    private var textAttributes: [String: String] = [:]
    /// `xml:base` scopes: the stack depth that opened each, and the base it set.
    private var bases: [(depth: Int, url: URL?)] = []

    private init(feedURL: URL) {
        self.feedURL = feedURL
    }

    /// Parses `data` (already UTF-8 or declared by `FeedInputDecoder`).
    static func run(_ data: Data, feedURL: URL) -> FeedSAXHandler {
        let handler = FeedSAXHandler(feedURL: feedURL)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        // The delegate is weak: `handler` is kept alive by this scope.
        parser.delegate = handler
        _ = parser.parse()
        handler.endPosition = (parser.lineNumber, parser.columnNumber)
        return handler
    }

    private var base: URL? { bases.last?.url ?? feedURL }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        guard !isRootClosed else { return }
        let parent = stack[stack.count - 1]
        let element = parent.child(named: elementName, in: namespace(uri: namespaceURI, qualifiedName: qualifiedName, localName: elementName))

        if parent == .document {
            rootElement = elementName
            guard element != .ignored else {
                // Not a feed: no need to read the rest of a web page.
                isAborted = true
                parser.abortParsing()
                return
            }
            isFeed = true
            feed.format = element == .atomFeed ? .atom : .rss
        }
        if let xmlBase = attributes["xml:base"] {
            bases.append((stack.count, FeedURLResolver.resolve(xmlBase, against: base)))
        }

        switch element {
        case .item, .entry:
            episode = EpisodeDraft()
        case .alternateEnclosure:
            episode?.beginAlternateEnclosure(attributes: attributes)
        case .feedLeaf(let leaf):
            feed.apply(leaf, attributes: attributes, base: base)
        case .episodeLeaf(let leaf):
            episode?.apply(leaf, attributes: attributes, base: base)
        case .feedText, .episodeText:
            isCollectingText = true
            text = ""
            textAttributes = attributes
        default:
            break
        }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard stack.count > 1 else { return }
        let element = stack.removeLast()
        switch element {
        case .feedText(let field):
            feed.set(field, text: text, attributes: textAttributes, base: base)
            isCollectingText = false
        case .episodeText(let field):
            episode?.set(field, text: text, attributes: textAttributes, base: base)
            isCollectingText = false
        case .item, .entry:
            if let finished = episode?.finished() {
                episodes.append(finished)
            }
            episode = nil
        case .alternateEnclosure:
            episode?.endAlternateEnclosure()
        default:
            break
        }
        if let last = bases.last, last.depth == stack.count {
            bases.removeLast()
        }
        if stack.count == 1 {
            isRootClosed = true
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if isCollectingText { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if isCollectingText { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard !isAborted else { return }
        let issue = XMLParseIssue(code: (parseError as NSError).code, line: parser.lineNumber, column: parser.columnNumber)
        switch issue.severity {
        case .tolerated:
            break
        case .repairable:
            needsEntityRepair = true
        case .fatal where isRootClosed:
            // Junk after the feed's closing tag: everything before it was read.
            break
        case .fatal:
            if fatalIssue == nil { fatalIssue = issue }
        }
    }

    // MARK: Namespaces

    private func namespace(uri: String?, qualifiedName: String?, localName: String) -> FeedNamespace {
        if let uri, !uri.isEmpty {
            if let known = namespaces[uri] { return known }
            let resolved = FeedNamespace(uri: uri)
            namespaces[uri] = resolved
            return resolved
        }
        // No URI but a prefix: the prefix was never declared.
        if let qualifiedName, qualifiedName.utf8.count != localName.utf8.count,
           let colon = qualifiedName.firstIndex(of: ":") {
            return FeedNamespace(undeclaredPrefix: qualifiedName[..<colon])
        }
        return .none
    }
}
