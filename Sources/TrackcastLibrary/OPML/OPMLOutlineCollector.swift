import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The XMLParser delegate behind `OPMLReader`: collects every outline that
/// names a feed, at any depth (folders are flattened), in document order.
final class OPMLOutlineCollector: NSObject, XMLParserDelegate {
    private(set) var rootElement: String?
    /// libxml2 does not always report a document cut off inside its root as
    /// an error; a root that never closed is how the reader tells.
    private(set) var isRootClosed = false
    private(set) var subscriptions: [FeedSubscription] = []
    private var depth = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        depth += 1
        if rootElement == nil {
            rootElement = name
            if name.lowercased() != "opml" { parser.abortParsing() }
            return
        }
        guard name.lowercased() == "outline" else { return }
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

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if depth == 0 { isRootClosed = true }
    }
}
