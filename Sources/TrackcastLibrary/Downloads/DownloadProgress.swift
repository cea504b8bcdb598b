/// How far a download has come.
public struct DownloadProgress: Sendable, Equatable {
    public let episode: EpisodeID
    /// On disk so far, including what an earlier, interrupted attempt left.
    public let bytes: Int64
    /// `nil` until the server says (or when it never does).
    public let total: Int64?

    public init(episode: EpisodeID, bytes: Int64, total: Int64?) {
        self.episode = episode
        self.bytes = bytes
        self.total = total
    }

    public var fraction: Double? {
        total.flatMap { $0 > 0 ? Double(bytes) / Double($0) : nil }
    }
}
