import Foundation

/// One pass of `XMLStreamReader` over a feed: turns SAX events into a `FeedDraft`
/// and `FeedEpisode`s, and records what went wrong. Used once per parse and
/// thrown away.
struct FeedSAXHandler {
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
    var endPosition: (line: Int, column: Int) {
        switch end {
        case .position(let line, let column): (line, column)
        case .offset(let offset, let document): XMLByteReader.position(of: offset, in: document)
        }
    }
    /// Where reading stopped: told by libxml2's reader, or `XMLByteReader`'s
    /// offset, whose line and column are counted only if asked for.
    private var end = End.position(line: 1, column: 1)
    private enum End {
        case position(line: Int, column: Int)
        case offset(Int, in: Data)
    }
    /// Where the items lie in the document; `nil` where libxml2 read it, which tells no offsets,
    /// and where the pass was not asked for it.
    var itemOutline: FeedItemOutline? { isReadByBytes ? outliner?.outline : nil }
    private var isReadByBytes = false
    /// Whether the texts handed on are cut out of valid UTF-8 at ASCII bytes
    /// (and joined with whole characters), as `XMLByteReader` cuts them out of
    /// `FeedInputDecoder`'s output: made into strings without a second check.
    private let textsAreValidUTF8: Bool
    /// Only for a pass that records the outline.
    private var outliner: FeedItemOutliner?

    /// What the reader asks for after each element's start and end.
    private var wants = Wants()
    private var stack: [FeedElement] = [.document]
    private var episode: EpisodeDraft?
    /// What each of the document's names is to the parser, by `XMLName.index`.
    private var names: [(name: FeedName?, namespace: FeedNamespace)] = []
    /// The open text element's UTF-8 so far, made into a string once, when it ends.
    private var text: [UInt8] = []
    /// The last long text made into a string, and its bytes: feeds repeat their
    /// show notes in `description`, `content:encoded` and `itunes:summary`,
    /// and the repeats are one string, checked and stored once.
    private var previousText: (bytes: [UInt8], string: String) = ([], "")
    /// Shorter texts are made anew: comparing would save little.
    private static let sharedTextMinimum = 256
    private var textAttributes = XMLAttributeValues()
    private var personLinks = FeedLinkCache()
    /// `xml:base` scopes: the stack depth that opened each, and the base it set.
    private var bases: [(depth: Int, url: URL?)] = []

    private init(feedURL: URL, outlining: Bool, textsAreValidUTF8: Bool) {
        self.feedURL = feedURL
        self.textsAreValidUTF8 = textsAreValidUTF8
        outliner = outlining ? FeedItemOutliner() : nil
    }

    /// Parses `data`, which must be valid UTF-8 (as `FeedInputDecoder.prepared`
    /// hands it on: `XMLByteReader`'s texts are made into strings unchecked),
    /// by `XMLByteReader` where it can, else (with a fresh pass) by libxml2.
    /// `outlining`: record where the items lie (`itemOutline`).
    static func run(_ data: Data, feedURL: URL, outlining: Bool) -> FeedSAXHandler {
        let scanned = Events(FeedSAXHandler(feedURL: feedURL, outlining: outlining, textsAreValidUTF8: true))
        if let end = XMLByteReader.read(data, into: scanned) {
            var pass = scanned.pass
            pass.end = .offset(end, in: data)
            pass.isReadByBytes = true
            return pass
        }
        let events = Events(FeedSAXHandler(feedURL: feedURL, outlining: outlining, textsAreValidUTF8: false))
        let end = XMLStreamReader.read(data, into: events)
        var pass = events.pass
        pass.end = .position(line: end.line, column: end.column)
        return pass
    }

    /// What the reader calls: it hands each event to the pass in one mutating
    /// call. Were the pass itself the class, Swift would check exclusive access
    /// on every one of its fields each event touches, about a tenth of the parse.
    private final class Events: XMLEventHandler {
        /// Not checked for exclusive access at run time (each event's check cost
        /// about 80 instructions, 2 % of a realistic feed's parse). Safe: the
        /// reader calls one event at a time on one thread, no event of the pass
        /// calls back into `Events`, and `run` reads the pass only once the
        /// reader has returned.
        @exclusivity(unchecked) var pass: FeedSAXHandler
        /// The pass's answers, kept here as they come back from its events:
        /// asked of `pass`, each would be another checked access, and the
        /// reader asks after every event. Only ever read or set whole, these
        /// need no run-time check.
        private var wants = Wants()
        /// The next event's place in the document, as the reader told it.
        private var offset = 0

        init(_ pass: FeedSAXHandler) {
            self.pass = pass
        }

        var wantsText: Bool { wants.text }
        var wantsToStop: Bool { wants.stop }
        func startElement(_ name: XMLName, attributes: borrowing XMLAttributes) {
            wants = pass.startElement(name, attributes: attributes, at: offset)
        }
        func endElement() { wants = pass.endElement(at: offset) }
        func tagBoundary(at offset: Int) { self.offset = offset }
        func text(_ bytes: UnsafeBufferPointer<UInt8>) { pass.text(bytes) }
        func issue(code: Int, line: Int, column: Int) { pass.issue(code: code, line: line, column: column) }
    }

    private var base: URL? { bases.last?.url ?? feedURL }

    // MARK: Events

    /// Text wanted from here on (made into strings only then), and whether to stop reading.
    struct Wants {
        var text = false
        /// Set when the root showed this is no feed.
        var stop = false
    }

    /// `offset`: where the start tag is in the document, if the reader tells (`XMLEventHandler.tagBoundary`).
    mutating func startElement(_ name: XMLName, attributes: borrowing XMLAttributes, at offset: Int) -> Wants {
        // Every name, even past the root, so that `names` keeps the reader's numbering.
        if name.index == names.count {
            names.append((FeedName(rawValue: name.localName), Self.namespace(of: name)))
        }
        guard !isRootClosed else { return wants }
        let known = names[name.index]
        let parent = stack[stack.count - 1]
        let element = parent.child(named: known.name, in: known.namespace)

        if parent == .document {
            rootElement = name.localName
            guard element != .ignored else {
                // Not a feed: no need to read the rest of a web page.
                wants.stop = true
                return wants
            }
            isFeed = true
            feed.format = element == .atomFeed ? .atom : .rss
        }
        outliner?.started(element, in: parent, at: offset)
        if let xmlBase = attributes.value(localName: "base", prefix: "xml") {
            bases.append((stack.count, FeedURLResolver.resolve(xmlBase, against: base)))
        }

        switch element {
        case .item, .entry:
            episode = EpisodeDraft()
        case .alternateEnclosure:
            episode?.beginAlternateEnclosure(attributes: attributes.values)
        case .feedLeaf(let leaf):
            feed.apply(leaf, attributes: attributes.values, base: base)
        case .episodeLeaf(let leaf):
            // Read first: while `episode?.` mutates in place, nothing else of `self` may be read.
            let base = base
            episode?.apply(leaf, attributes: attributes, base: base)
        case .feedText, .episodeText:
            wants.text = true
            text.removeAll(keepingCapacity: true)
            attributes.copy(into: &textAttributes)
        default:
            break
        }
        stack.append(element)
        return wants
    }

    /// `offset`: just past the end tag, if the reader tells.
    mutating func endElement(at offset: Int) -> Wants {
        guard stack.count > 1 else { return wants }
        let element = stack.removeLast()
        outliner?.ended(element, in: stack[stack.count - 1], at: offset)
        switch element {
        case .feedText(let field):
            let text = collectedText()
            let base = base
            feed.set(field, text: text, attributes: textAttributes, base: base, links: &personLinks)
            wants.text = false
        case .episodeText(let field):
            // Read first: while `episode?.` mutates in place, nothing else of `self` may be read.
            let (base, text, attributes) = (base, collectedText(), textAttributes)
            episode?.set(field, text: text, attributes: attributes, base: base, links: &personLinks)
            wants.text = false
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
        return wants
    }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        text.append(contentsOf: bytes)
    }

    private mutating func collectedText() -> String {
        let isLong = text.count >= Self.sharedTextMinimum
        if isLong && text.count == previousText.bytes.count && text.withUnsafeBytes({ new in
            previousText.bytes.withUnsafeBytes { memcmp(new.baseAddress!, $0.baseAddress!, new.count) == 0 }
        }) {
            return previousText.string
        }
        // XML lets `&#x9b;` and raw C1 controls through; nothing shown needs them.
        let made = textsAreValidUTF8
            ? text.withUnsafeBufferPointer(String.init(knownValidUTF8:)) : String(decoding: text, as: UTF8.self)
        let string = FeedControls.removing(from: made)
        if isLong {
            // Kept; the old buffer, with its capacity, gathers the next text.
            swap(&text, &previousText.bytes)
            previousText.string = string
        }
        return string
    }

    mutating func issue(code: Int, line: Int, column: Int) {
        guard !wants.stop else { return }
        let issue = XMLParseIssue(code: code, line: line, column: column)
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

    private static func namespace(of name: XMLName) -> FeedNamespace {
        if let uri = name.namespaceURI, !uri.isEmpty {
            return FeedNamespace(uri: uri)
        }
        // No URI but a prefix: the prefix was never declared.
        if let prefix = name.prefix {
            return FeedNamespace(undeclaredPrefix: Substring(prefix))
        }
        return .none
    }
}
