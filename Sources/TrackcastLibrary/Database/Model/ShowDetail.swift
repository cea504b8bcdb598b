/// A show with its channel-level persons and funding links, for the show page.
public struct ShowDetail: Sendable, Equatable {
    public let show: Show
    public let persons: [FeedPerson]
    public let funding: [FeedFunding]
}
