/// The answer to a subscriptions GET: what other devices added and removed
/// since the timestamp asked from, and the timestamp to ask from next time.
public struct SubscriptionChanges: Sendable, Equatable {
    public var add: [String]
    public var remove: [String]
    public var timestamp: Int64
}
