/// Why a show's last refresh failed, classified so the UI can word it and
/// decide whether to retry, with the underlying message for details.
public struct RefreshFailure: Sendable, Equatable {
    /// An open set of kinds: the refresh code may add its own with an extension.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// No connection, DNS failure, connection reset.
        public static let network = Kind(rawValue: "network")
        public static let timeout = Kind(rawValue: "timeout")
        /// The server answered with an error status.
        public static let httpStatus = Kind(rawValue: "http-status")
        /// The document is not a feed, or not one that parses.
        public static let invalidFeed = Kind(rawValue: "invalid-feed")
        public static let other = Kind(rawValue: "other")
    }

    public let kind: Kind
    public let message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}
