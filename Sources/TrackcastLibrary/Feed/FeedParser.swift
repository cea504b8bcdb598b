import Foundation

/// Reads RSS 2.0 and Atom 1.0 podcast feeds, with the iTunes, Media RSS,
/// Podlove Simple Chapters, content and Podcasting 2.0 namespaces, into `Feed`.
///
/// Streaming (SAX, by `XMLByteReader`, or libxml2 through `XMLStreamReader`
/// for what that leaves): memory stays proportional
/// to the result, not to a document tree. External entities are never loaded.
/// Safe to use from any thread; each call is independent.
public struct FeedParser: Sendable {
    public struct Options: Sendable, Equatable {
        /// Keep only this many episodes: the most recent by publication date
        /// (undated ones count as oldest, ties go to the one listed first),
        /// returned in feed order. `nil` keeps all.
        public var maxEpisodes: Int?

        public init(maxEpisodes: Int? = nil) {
            self.maxEpisodes = maxEpisodes
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// - Parameters:
    ///   - data: The feed as downloaded, in whatever encoding it came.
    ///   - url: Where it was downloaded from (after redirects): relative links resolve against it.
    ///   - httpContentType: The response's `Content-Type` header, if any; its
    ///     `charset` is used when the document does not declare an encoding.
    public func parse(_ data: Data, url: URL, httpContentType: String? = nil) throws(FeedParseError) -> Feed {
        // Without the outline: only the refresh's partial parse needs it, and
        // recording it (and mapping it back through a transcoding) is work for nothing here.
        try parsed(data, url: url, httpContentType: httpContentType, outlining: false).feed
    }

    /// `parse`, and where the feed's items lie in `data`: `nil` where that is
    /// not known (the feed has no items, its entities were repaired, it was
    /// read by libxml2, or transcoded from an encoding that does not write
    /// `<` and `>` as single bytes; `FeedItemOutline.mapped`).
    func parseOutlined(_ data: Data, url: URL, httpContentType: String? = nil) throws(FeedParseError)
        -> (feed: Feed, outline: FeedItemOutline?) {
        try parsed(data, url: url, httpContentType: httpContentType, outlining: true)
    }

    /// The parse; the outline too when `outlining`, else `nil`.
    private func parsed(_ data: Data, url: URL, httpContentType: String?, outlining: Bool) throws(FeedParseError)
        -> (feed: Feed, outline: FeedItemOutline?) {
        guard data.contains(where: { !Self.isXMLWhitespace($0) }) else { throw .empty }
        let input = FeedInputDecoder.prepared(data, httpContentType: httpContentType)
        var pass = FeedSAXHandler.run(input, feedURL: url, outlining: outlining)
        var outline: FeedItemOutline?
        if pass.needsEntityRepair {
            pass = FeedSAXHandler.run(XMLEntityRepair.repaired(input), feedURL: url, outlining: false)
        } else if let found = pass.itemOutline {
            outline = input == data ? found : found.mapped(from: input, to: data)
        }

        guard let root = pass.rootElement else {
            throw Self.looksLikeWebPage(data) ? .notAFeed(rootElement: "html") : .notXML
        }
        guard pass.isFeed else { throw .notAFeed(rootElement: root) }
        if let issue = pass.fatalIssue {
            // A feed that stops inside its root, with the error on its last line, is a cut-off
            // download, whatever libxml2 tripped over there (a half-written tag, an open element).
            let isCutOff = !pass.isRootClosed && issue.line == pass.endPosition.line
            throw .malformedXML(line: issue.line, column: issue.column, reason: isCutOff ? XMLParseIssue.cutOffReason : issue.reason)
        }
        guard pass.isRootClosed else {
            // libxml2 reports a cut-off document; this covers any case where it stays silent.
            throw .malformedXML(line: pass.endPosition.line, column: pass.endPosition.column, reason: XMLParseIssue.cutOffReason)
        }
        return (pass.feed.finished(episodes: limited(pass.episodes)), outline)
    }

    private func limited(_ episodes: [FeedEpisode]) -> [FeedEpisode] {
        guard let maximum = options.maxEpisodes, episodes.count > maximum else { return episodes }
        let newest = episodes.indices
            .sorted { a, b in
                let dateA = episodes[a].published ?? .distantPast
                let dateB = episodes[b].published ?? .distantPast
                return dateA != dateB ? dateA > dateB : a < b
            }
            .prefix(max(0, maximum))
        return newest.sorted().map { episodes[$0] }
    }

    private static func isXMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// For data with no XML root at all: a web page whose HTML is not even XML-shaped.
    private static func looksLikeWebPage(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<!doctype html") || head.contains("<html")
    }
}
