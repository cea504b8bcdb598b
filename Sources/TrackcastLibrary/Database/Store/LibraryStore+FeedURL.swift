import Foundation

extension LibraryStore {
    /// Changes where a show is refreshed from, as a permanent redirect or the
    /// feed's `itunes:new-feed-url` asks.
    ///
    /// Returns `false`, changing nothing, when another show already has `url`
    /// (feed URLs are unique): the two are the same podcast, and which one the
    /// user keeps is theirs to decide; and when the show is read over HTTPS
    /// and `url` is not (`isDowngrade`). `keepingValidators: false` drops the
    /// ETag and Last-Modified, which belong to the old URL's server.
    @discardableResult
    public func moveShow(_ id: ShowID, to url: URL, keepingValidators: Bool) throws -> Bool {
        try connection.transaction {
            let current = try connection.queryFirst("SELECT feed_url FROM shows WHERE id = ?", [id]) { $0.url(0) } ?? nil
            if let current, Self.isDowngrade(from: current, to: url) { return false }
            let owner = try connection.queryFirst("SELECT id FROM shows WHERE feed_url = ?", [url]) {
                ShowID(rawValue: $0.int64(0))
            }
            if owner == id { return true }
            guard owner == nil else { return false }
            if keepingValidators {
                try connection.execute("UPDATE shows SET feed_url = ? WHERE id = ?", [url, id])
            } else {
                try connection.execute("UPDATE shows SET feed_url = ?, etag = NULL, last_modified = NULL WHERE id = ?",
                                       [url, id])
            }
            guard connection.changes == 1 else { throw LibraryStoreError.unknownShow(id) }
            return true
        }
    }

    /// Subscribes feeds without fetching them (an OPML import), in one
    /// transaction: all of them or, on an error, none. Feeds already in the
    /// library and repeats within `subscriptions` are skipped. Returns the new
    /// shows' ids in the order given.
    public func addShows(_ subscriptions: [FeedSubscription], at now: Date = Date()) throws -> [ShowID] {
        try connection.transaction {
            let writer = FeedRowWriter(connection: connection)
            var added: [ShowID] = []
            for subscription in subscriptions {
                let known = try connection.queryFirst("SELECT 1 FROM shows WHERE feed_url = ?",
                                                      [subscription.feedURL]) { _ in true } ?? false
                guard !known else { continue }
                let id = try writer.insertShow(feedURL: subscription.feedURL, subscribed: now)
                try connection.execute("UPDATE shows SET title = ?, link = ? WHERE id = ?",
                                       [subscription.title, subscription.link, id])
                added.append(id)
            }
            return added
        }
    }

    /// Applies a refreshed feed to a show, unless the show was unsubscribed or
    /// moved while its feed was in flight (`nil` then: applying by URL would
    /// subscribe it again). Follows `permanentURL` first, then the feed's own
    /// `itunes:new-feed-url`.
    ///
    /// Synchronous on the actor, so no other library call runs between the
    /// check and the writes.
    func applyRefreshed(_ feed: Feed, to id: ShowID, requestedFrom requested: URL, permanentURL: URL?,
                        etag: String?, lastModified: String?, layout: FeedDocumentLayout?, at now: Date) throws
        -> RefreshApplication? {
        guard try show(id)?.feedURL == requested else { return nil }
        var feedURL = requested
        if let permanentURL, permanentURL != requested,
           try moveShow(id, to: permanentURL, keepingValidators: true) {
            feedURL = permanentURL
        }
        let result = try apply(feed: feed, fetchedFrom: feedURL, etag: etag, lastModified: lastModified,
                               layout: layout, at: now)
        if let announced = feed.newFeedURL, announced != feedURL, Self.isWebURL(announced),
           try moveShow(id, to: announced, keepingValidators: false) {
            feedURL = announced
        }
        return RefreshApplication(result: result, feedURL: feedURL)
    }

    /// Applies several refreshed feeds (each as `applyRefreshed(_:to:...)`)
    /// in one transaction, for a refresh whose feeds arrive faster than one
    /// commit each would keep up with. Should one of them fail, the batch is
    /// rolled back and each applied again in a transaction of its own, so the
    /// others are kept and the failure is that feed's alone.
    func applyRefreshed(_ feeds: [RefreshedFeed]) -> [Result<RefreshApplication?, any Error>] {
        if feeds.count > 1, let applied = try? connection.batch({ try feeds.map(applyRefreshed) }) {
            return applied.map { .success($0) }
        }
        return feeds.map { feed in Result { try applyRefreshed(feed) } }
    }

    private func applyRefreshed(_ refreshed: RefreshedFeed) throws -> RefreshApplication? {
        try applyRefreshed(refreshed.feed, to: refreshed.show, requestedFrom: refreshed.requestedFrom,
                           permanentURL: refreshed.permanentURL, etag: refreshed.etag,
                           lastModified: refreshed.lastModified, layout: refreshed.layout, at: refreshed.fetchedAt)
    }

    /// Records a 304 (or a document identical to the last one applied) for a
    /// show, following `permanentURL` as `applyRefreshed`
    /// does; returns the show's feed URL afterwards, `nil` if it was
    /// unsubscribed or moved meanwhile.
    func recordNotModified(_ id: ShowID, requestedFrom requested: URL, permanentURL: URL?,
                           etag: String?, lastModified: String?, at now: Date) throws -> URL? {
        guard try show(id)?.feedURL == requested else { return nil }
        var feedURL = requested
        if let permanentURL, permanentURL != requested,
           try moveShow(id, to: permanentURL, keepingValidators: true) {
            feedURL = permanentURL
        }
        try recordRefresh(of: id, outcome: .notModified(etag: etag, lastModified: lastModified), at: now)
        return feedURL
    }

    /// Whether moving a feed from `old` to `new` gives up HTTPS. Such a move
    /// is never stored: one answer from whoever sits on the network (a 301,
    /// or a feed rewritten to announce a new URL) would otherwise leave every
    /// later refresh open to rewriting in transit.
    public static func isDowngrade(from old: URL, to new: URL) -> Bool {
        old.scheme?.lowercased() == "https" && new.scheme?.lowercased() != "https"
    }

    private static func isWebURL(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased()) && url.host != nil
    }
}
