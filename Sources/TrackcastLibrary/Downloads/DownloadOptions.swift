/// Limits of a download.
public struct DownloadOptions: Sendable, Equatable {
    /// The total allows for a long video on a slow link; what catches a dead
    /// server is the idle limit.
    public var timeouts: HTTPTimeouts

    public init(timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(30), total: .seconds(12 * 3600),
                                                      idle: .seconds(60))) {
        self.timeouts = timeouts
    }
}
