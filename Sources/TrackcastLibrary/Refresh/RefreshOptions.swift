/// Limits of a refresh.
public struct RefreshOptions: Sendable, Equatable {
    /// How many hosts are asked at once. Each host gets one request at a time,
    /// so this also bounds the requests in flight.
    public var maxConcurrentHosts: Int
    public var timeouts: HTTPTimeouts
    /// The most bytes a feed may have once decompressed. The largest real
    /// feeds (thousands of episodes with full show notes) reach 10-20 MB.
    public var maxFeedBytes: Int64
    /// How many of a show's new or changed episodes have their transcripts
    /// fetched for the search index after a refresh, newest first. A show
    /// subscribed with years of transcribed episodes should not cost
    /// hundreds of requests; older ones come in as their pages are opened.
    public var transcriptsPerShow: Int

    public init(maxConcurrentHosts: Int = 6,
                timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(20), total: .seconds(90)),
                maxFeedBytes: Int64 = 50 * 1_048_576, transcriptsPerShow: Int = 20) {
        self.maxConcurrentHosts = maxConcurrentHosts
        self.timeouts = timeouts
        self.maxFeedBytes = maxFeedBytes
        self.transcriptsPerShow = transcriptsPerShow
    }
}
