extension RefreshFailure.Kind {
    /// The feed is bigger than `RefreshOptions.maxFeedBytes`.
    public static let tooLarge = Self(rawValue: "too-large")
    /// More redirects than allowed, a loop among them.
    public static let tooManyRedirects = Self(rawValue: "too-many-redirects")
    /// A local feed file that cannot be read.
    public static let unreadableFile = Self(rawValue: "unreadable-file")
}

/// Thrown by the fetch and parse steps of a refresh, and recorded as it is.
extension RefreshFailure: Error {}

extension RefreshFailure {
    init(_ error: HTTPError) {
        switch error {
        case .network(let message):
            self.init(kind: .network, message: message)
        case .timeout(.connect):
            self.init(kind: .timeout, message: "The server did not answer in time.")
        case .timeout(.total), .timeout(.idle):
            self.init(kind: .timeout, message: "The feed took too long to download.")
        case .tooManyRedirects(let limit):
            self.init(kind: .tooManyRedirects, message: "The server redirected more than \(limit) times.")
        case .tooLarge(let limit):
            self.init(kind: .tooLarge, message: "The feed is larger than \(limit / 1_048_576) MB.")
        case .cancelled:
            // FeedFetcher turns it into CancellationError before it gets here.
            self.init(kind: .other, message: "Cancelled.")
        }
    }

    init(_ error: FeedParseError) {
        self.init(kind: .invalidFeed, message: error.errorDescription ?? "This is not a podcast feed.")
    }

    static func httpStatus(_ status: Int) -> RefreshFailure {
        RefreshFailure(kind: .httpStatus, message: "The server answered \(status) (\(reasonPhrase(status))).")
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 300..<400: "an unfollowed redirect"
        default: "an error"
        }
    }
}
