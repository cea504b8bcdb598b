import Foundation

/// Why a file could not be read as a subscription list.
public enum OPMLError: Error, Sendable, Equatable, LocalizedError {
    /// Not XML, or XML broken at this line.
    case malformed(line: Int, reason: String)
    /// XML whose top element is not `<opml>`.
    case notOPML(rootElement: String)

    public var errorDescription: String? {
        switch self {
        case .malformed(let line, let reason):
            return "This is not a subscription list (OPML): the XML is broken at line \(line): \(reason)."
        case .notOPML(let root):
            return "This is not a subscription list (OPML): its top element is <\(root)>, not <opml>."
        }
    }
}
