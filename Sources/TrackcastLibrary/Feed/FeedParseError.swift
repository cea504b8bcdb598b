import Foundation

/// Why a download could not be read as a podcast feed. The messages are
/// written for the person who pasted the URL, not for a developer.
public enum FeedParseError: Error, Sendable, Equatable, LocalizedError {
    /// Zero bytes, or only whitespace.
    case empty
    /// The data is not XML at all (plain text, JSON, binary, …).
    case notXML
    /// Well-formed enough to have a root element, but that root is not `rss` or
    /// Atom `feed`. A web page lands here with `rootElement` "html".
    case notAFeed(rootElement: String)
    /// An RSS or Atom document that breaks the XML rules in a way that cannot
    /// safely be read past, typically a download cut short.
    case malformedXML(line: Int, column: Int, reason: String)

    public var errorDescription: String? {
        switch self {
        case .empty:
            return "The feed is empty: the server sent no data."
        case .notXML:
            return "This is not a podcast feed: the data is not XML."
        case .notAFeed(let root) where root.lowercased() == "html":
            return "This is a web page, not a podcast feed. Look on the page for its RSS feed link."
        case .notAFeed(let root):
            return "This is XML but not a podcast feed: its top element is <\(root)>, not <rss> or <feed>."
        case .malformedXML(let line, let column, let reason):
            return "The feed is broken at line \(line), column \(column): \(reason)."
        }
    }
}
