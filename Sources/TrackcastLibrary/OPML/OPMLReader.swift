import Foundation

/// Reads the subscription lists podcast apps export (OPML 1.0 and 2.0, as
/// written by gPodder, AntennaPod, GNOME Podcasts and others).
public struct OPMLReader: Sendable {
    public init() {}

    /// The feeds in `data`, in document order, each feed URL once (the first
    /// outline naming it wins). Folders are flattened; outlines without a feed
    /// URL (folders, links) are skipped. External entities are never loaded.
    public func read(_ data: Data) throws(OPMLError) -> [FeedSubscription] {
        // Decoded to valid UTF-8 without a DOCTYPE first, as feeds are.
        let collector = OPMLOutlineCollector()
        let end = XMLStreamReader.read(FeedInputDecoder.prepared(data, httpContentType: nil), into: collector)
        if let root = collector.rootElement, root.lowercased() != "opml" {
            throw .notOPML(rootElement: root)
        }
        if let issue = collector.fatalIssue {
            throw .malformed(line: issue.line, reason: issue.reason)
        }
        guard collector.rootElement != nil else {
            throw .malformed(line: end.line, reason: "no XML found")
        }
        guard collector.isRootClosed else {
            throw .malformed(line: end.line, reason: "the file ends before the list does")
        }
        var seen: Set<String> = []
        return collector.subscriptions.filter { seen.insert($0.feedURL.absoluteString).inserted }
    }
}
