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
        guard collector.rootElement != nil else {
            throw .malformed(line: end.line, reason: "there is no XML in it")
        }
        if let issue = collector.fatalIssue {
            // Stopped inside the list, with the error on the last line: a file
            // cut short, whatever libxml2 tripped over there (as for feeds).
            let isCutOff = issue.isEndOfInput || (!collector.isRootClosed && issue.line == end.line)
            throw .malformed(line: issue.line, reason: isCutOff ? Self.cutOffReason : issue.reason)
        }
        guard collector.isRootClosed else {
            throw .malformed(line: end.line, reason: Self.cutOffReason)
        }
        var seen: Set<String> = []
        return collector.subscriptions.filter { seen.insert($0.feedURL.absoluteString).inserted }
    }

    private static let cutOffReason = "the file ends before the list does"
}
