import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the subscription lists podcast apps export (OPML 1.0 and 2.0, as
/// written by gPodder, AntennaPod, GNOME Podcasts and others).
public struct OPMLReader: Sendable {
    public init() {}

    /// The feeds in `data`, in document order, each feed URL once (the first
    /// outline naming it wins). Folders are flattened; outlines without a feed
    /// URL (folders, links) are skipped. External entities are never loaded.
    public func read(_ data: Data) throws(OPMLError) -> [FeedSubscription] {
        // Decoded to valid UTF-8 first, as feeds are: Foundation's XMLParser
        // traps on an element name or comment with invalid UTF-8 that libxml2
        // passes on (found by fuzzing; Fixtures/fuzz-regressions/opml).
        let parser = XMLParser(data: FeedInputDecoder.prepared(data, httpContentType: nil))
        parser.shouldResolveExternalEntities = false
        let collector = OPMLOutlineCollector()
        parser.delegate = collector
        let finished = parser.parse()
        if let root = collector.rootElement, root.lowercased() != "opml" {
            throw .notOPML(rootElement: root)
        }
        guard finished, collector.rootElement != nil else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "no XML found"
            throw .malformed(line: parser.lineNumber, reason: reason)
        }
        guard collector.isRootClosed else {
            throw .malformed(line: parser.lineNumber, reason: "the file ends before the list does")
        }
        var seen: Set<String> = []
        return collector.subscriptions.filter { seen.insert($0.feedURL.absoluteString).inserted }
    }
}
