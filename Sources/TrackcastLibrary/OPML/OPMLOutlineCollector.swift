import Foundation

/// What `OPMLReader` hands `XMLStreamReader`: collects every outline that
/// names a feed, at any depth (folders are flattened), in document order.
final class OPMLOutlineCollector: XMLEventHandler {
    /// The top element's name as written (with its prefix, if any).
    private(set) var rootElement: String?
    /// libxml2 does not always report a document cut off inside its root as
    /// an error; a root that never closed is how the reader tells.
    private(set) var isRootClosed = false
    /// The first error that breaks the document's structure. Lesser ones (an
    /// undeclared `&nbsp;`, a stray control character) are read past, as in feeds.
    private(set) var fatalIssue: XMLParseIssue?
    private(set) var subscriptions: [FeedSubscription] = []
    private(set) var wantsToStop = false
    let wantsText = false
    private var depth = 0

    func startElement(_ element: XMLName, attributes: borrowing XMLAttributes) {
        depth += 1
        let name = element.qualifiedName
        if rootElement == nil {
            rootElement = name
            if name.lowercased() != "opml" { wantsToStop = true }
            return
        }
        guard name.lowercased() == "outline" else { return }
        let attributes = attributes.dictionary
        // Apps disagree on case (xmlUrl, xmlurl, XMLURL).
        var lowercased: [String: String] = [:]
        for (key, value) in attributes { lowercased[key.lowercased()] = value }
        // `url` is where OPML 1.0 era lists (and some exporters) put the feed.
        let type = lowercased["type"]?.lowercased()
        let address = lowercased["xmlurl"] ?? ((type == "rss" || type == "atom") ? lowercased["url"] : nil)
        // A local feed only by an explicit file: URL (as Trackcast exports
        // one); a bare path would be read relative to wherever we run.
        guard let address, let feedURL = FeedAddress.url(from: address),
              !feedURL.isFileURL || address.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("file:")
        else { return }
        // gPodder puts the description in `text` and the title in `title`;
        // most others put the title in both, or in `text` alone.
        let title = [lowercased["title"], lowercased["text"]]
            .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty }
        let link = lowercased["htmlurl"].flatMap { URL(string: $0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0.host == nil ? nil : $0 }
        subscriptions.append(FeedSubscription(feedURL: feedURL, title: title, link: link))
    }

    func endElement() {
        depth -= 1
        if depth == 0 { isRootClosed = true }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {}

    func issue(code: Int, line: Int, column: Int) {
        guard !wantsToStop, !isRootClosed, fatalIssue == nil else { return }
        let issue = XMLParseIssue(code: code, line: line, column: column)
        if issue.severity == .fatal { fatalIssue = issue }
    }
}
