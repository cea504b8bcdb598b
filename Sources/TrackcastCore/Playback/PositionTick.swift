/// Where playback is, reported about twice a second while playing.
public struct PositionTick: Sendable, Equatable {
    public let itemID: PlaybackItemID
    public let position: Duration
    /// nil while unknown, and for live streams.
    public let duration: Duration?
    public let rate: Double

    public init(itemID: PlaybackItemID, position: Duration, duration: Duration?, rate: Double) {
        self.itemID = itemID
        self.position = position
        self.duration = duration
        self.rate = rate
    }
}
