import Foundation

/// What an OPML import did.
public struct OPMLImportResult: Sendable, Equatable {
    /// The shows subscribed, not yet refreshed, in the list's order.
    public let added: [ShowID]
    /// Feeds in the list that the library already had.
    public let skipped: Int
}

extension LibraryStore {
    /// Subscribes every feed in an OPML document, in one transaction, without
    /// fetching them: the caller refreshes `added` next. Throws `OPMLError`
    /// for a file that is not OPML, leaving the library untouched.
    public nonisolated func importOPML(_ data: Data) async throws -> OPMLImportResult {
        // Parsing runs here, on the global executor, not on the store's actor.
        let subscriptions = try OPMLReader().read(data)
        let added = try await addShows(subscriptions)
        return OPMLImportResult(added: added, skipped: subscriptions.count - added.count)
    }

    /// Every show as an OPML 2.0 subscription list.
    public func exportOPML(created: Date = Date()) throws -> Data {
        let subscriptions = try shows().map { FeedSubscription(feedURL: $0.feedURL, title: $0.title, link: $0.link) }
        return OPMLWriter().write(subscriptions, created: created)
    }
}
