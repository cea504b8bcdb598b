import Foundation

/// A feed a refresh fetched for a show, with what its response said: what
/// `LibraryStore.applyRefreshed(_:)` writes.
struct RefreshedFeed: Sendable {
    let feed: Feed
    let show: ShowID
    /// The URL asked for: the apply is skipped if the show moved meanwhile.
    let requestedFrom: URL
    let permanentURL: URL?
    let etag: String?
    let lastModified: String?
    let layout: FeedDocumentLayout?
    let fetchedAt: Date
}
