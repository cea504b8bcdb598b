import Foundation

/// Brings shows up to date with their feeds, and subscribes new ones.
///
/// Shows are grouped by host. Up to `RefreshOptions.maxConcurrentHosts` hosts
/// are worked on at once, each by one task that asks for its shows one after
/// another: a podcast host serving hundreds of a user's feeds sees one
/// request at a time, and a slow host holds up only its own shows. A host's
/// next request goes out while its last few feeds are parsed and applied.
///
/// Each request is conditional (ETag, Last-Modified); a 304 is recorded
/// without parsing, and so is a document byte for byte the one last applied,
/// for servers that send no validators; of a document that only gained items
/// at its top, only those are parsed (`FeedDocumentLayout`). Parsing runs in
/// the host's task, off every actor; the store writes only new or changed
/// episodes, in one transaction per show, or per few shows when feeds come
/// faster than it commits (`RefreshApplyQueue`).
/// A show that fails records its classified failure and the others go on.
///
/// With a `TranscriptFetcher`, the transcripts of the newest episodes a
/// refresh wrote are fetched after its transaction and put into the search
/// index, in the host's task; one that cannot be fetched is left for the
/// episode's page. A subscribe returns first: its caller asks for them
/// (`indexTranscripts(of:)`) once the show is on screen.
public final class FeedRefresher: Sendable {
    private let store: LibraryStore
    private let fetcher: FeedFetcher
    private let applies: RefreshApplyQueue
    private let transcripts: TranscriptFetcher?

    public init(store: LibraryStore, client: HTTPClient, options: RefreshOptions = RefreshOptions(),
                transcripts: TranscriptFetcher? = nil) {
        self.store = store
        fetcher = FeedFetcher(client: client, options: options)
        applies = RefreshApplyQueue(store: store)
        self.transcripts = transcripts
    }

    /// Refreshes every show in the library, and records when it started
    /// (`LibraryStore.lastFullRefresh`).
    public func refreshAll(progress: @escaping @Sendable (RefreshProgress) -> Void = { _ in }) async throws
        -> [ShowRefreshReport] {
        let started = Date()
        let reports = await refresh(try await store.shows(), progress: progress)
        // Not recorded, the app's next automatic refresh comes sooner; the
        // reports matter more than the time.
        try? await store.setLastFullRefresh(started)
        return reports
    }

    /// Refreshes `shows` (as read from the store: their URLs and validators).
    /// Returns one report per show, in the order given. Cancelling the
    /// calling task stops the transfers in flight and the shows not started.
    public func refresh(_ shows: [Show], progress: @escaping @Sendable (RefreshProgress) -> Void = { _ in }) async
        -> [ShowRefreshReport] {
        var lanes: [String: [Show]] = [:]
        var laneOrder: [String] = []
        for show in shows {
            let host = show.feedURL.host?.lowercased() ?? ""
            if lanes[host] == nil { laneOrder.append(host) }
            lanes[host, default: []].append(show)
        }
        var reports: [ShowID: ShowRefreshReport] = [:]
        await withTaskGroup(of: [ShowRefreshReport].self) { group in
            var waiting = laneOrder.makeIterator()
            func startNextLane() {
                guard let host = waiting.next(), let lane = lanes[host] else { return }
                group.addTask { await self.refreshLane(lane, progress: progress) }
            }
            for _ in 0..<max(1, fetcher.options.maxConcurrentHosts) { startNextLane() }
            for await laneReports in group {
                for report in laneReports { reports[report.showID] = report }
                startNextLane()
            }
        }
        return shows.compactMap { reports[$0.id] }
    }

    /// Fetches and parses `url` and, if it is a feed, adds it to the library.
    /// A feed that fails to fetch or parse throws `RefreshFailure` and leaves
    /// the library untouched. A permanent redirect subscribes the new URL.
    public func subscribe(to url: URL) async throws -> SubscribeResult {
        if let known = try await store.show(feedURL: url) {
            return SubscribeResult(show: known, applied: nil)
        }
        guard case .document(let document) = try await fetcher.fetch(url) else {
            // Nothing was sent to be "not modified" against.
            throw RefreshFailure.httpStatus(304)
        }
        let (feed, layout) = try Self.parse(document)
        // A permanent redirect from https to http is followed this once, not kept.
        let feedURL = document.permanentURL.flatMap { LibraryStore.isDowngrade(from: url, to: $0) ? nil : $0 } ?? url
        if let known = try await store.show(feedURL: feedURL) {
            return SubscribeResult(show: known, applied: nil)
        }
        let result = try await store.apply(feed: feed, fetchedFrom: feedURL, etag: document.etag,
                                           lastModified: document.lastModified, layout: layout)
        if let announced = feed.newFeedURL, announced != feedURL, ["http", "https"].contains(announced.scheme) {
            try await store.moveShow(result.showID, to: announced, keepingValidators: false)
        }
        guard let show = try await store.show(result.showID) else { throw LibraryStoreError.unknownShow(result.showID) }
        return SubscribeResult(show: show, applied: result)
    }

    /// How many of a lane's fetched feeds may wait to be parsed and applied
    /// while it fetches the next, and how many of their bytes. The store
    /// commits feeds one transaction at a time, and a commit that merges
    /// the search index's segments takes tens of milliseconds: with one
    /// feed behind, each lane stopped fetching while its last feed waited
    /// (the refresh of 500 realistic feeds 410-440 ms against 365-380 ms
    /// with four), and with four every lane still stood still through such
    /// a merge (sixteen was faster than four in each of five alternated
    /// pairs, 2-17 %). The bytes bound the memory a lane holds for feeds of
    /// megabytes: six lanes hold at most 48 MiB of documents besides those
    /// arriving.
    static let feedsBehindFetching = 16
    static let bytesBehindFetching = 8 * 1_048_576

    /// The lane's shows, one request at a time to its host; while its last
    /// few feeds are parsed and applied, the next show's request is already out.
    /// Each show is reported finished as soon as it is applied, not when the
    /// lane next stops to count what is behind it: that may be a fetch later.
    private func refreshLane(_ shows: [Show], progress: @escaping @Sendable (RefreshProgress) -> Void) async
        -> [ShowRefreshReport] {
        await withTaskGroup(of: (report: ShowRefreshReport, bytes: Int).self) { processing in
            var reports: [ShowRefreshReport] = []
            var behind = 0, bytesBehind = 0
            for show in shows {
                var fetched: Result<FeedFetch, any Error>?
                if !Task.isCancelled {
                    progress(.started(show.id, feedURL: show.feedURL))
                    fetched = await fetch(show)
                }
                let bytes = fetched.map(Self.documentBytes) ?? 0
                while behind >= Self.feedsBehindFetching || (behind > 0 && bytesBehind + bytes > Self.bytesBehindFetching),
                      let previous = await processing.next() {
                    reports.append(previous.report)
                    behind -= 1
                    bytesBehind -= previous.bytes
                }
                if let fetched {
                    processing.addTask {
                        let report = await self.refreshShow(show, fetched: fetched)
                        progress(.finished(report))
                        return (report, bytes)
                    }
                    behind += 1
                    bytesBehind += bytes
                } else {
                    let report = Self.report(show, .cancelled)
                    progress(.finished(report))
                    reports.append(report)
                }
            }
            while let last = await processing.next() { reports.append(last.report) }
            return reports
        }
    }

    private static func documentBytes(_ fetched: Result<FeedFetch, any Error>) -> Int {
        guard case .success(.document(let document)) = fetched else { return 0 }
        return document.data.count
    }

    private func fetch(_ show: Show) async -> Result<FeedFetch, any Error> {
        do {
            return .success(try await fetcher.fetch(show.feedURL, etag: show.refresh.etag,
                                                    lastModified: show.refresh.lastModified))
        } catch {
            return .failure(error)
        }
    }

    private func refreshShow(_ show: Show, fetched: Result<FeedFetch, any Error>) async -> ShowRefreshReport {
        do {
            switch try fetched.get() {
            case .notModified(let etag, let lastModified, let permanentURL):
                guard let feedURL = try await store.recordNotModified(
                    show.id, requestedFrom: show.feedURL, permanentURL: permanentURL, etag: etag,
                    lastModified: lastModified, at: Date()) else { return Self.report(show, .unsubscribed) }
                return Self.report(show, .notModified, feedURL: feedURL)
            case .document(let document):
                guard let (feed, layout) = try Self.parse(document, since: show.refresh.feedLayout) else {
                    guard let feedURL = try await store.recordNotModified(
                        show.id, requestedFrom: show.feedURL, permanentURL: document.permanentURL,
                        etag: document.etag, lastModified: document.lastModified, at: Date())
                    else { return Self.report(show, .unsubscribed) }
                    return Self.report(show, .notModified, feedURL: feedURL)
                }
                guard let applied = try await applies.apply(RefreshedFeed(
                    feed: feed, show: show.id, requestedFrom: show.feedURL, permanentURL: document.permanentURL,
                    etag: document.etag, lastModified: document.lastModified, layout: layout, fetchedAt: Date()))
                else { return Self.report(show, .unsubscribed) }
                await indexTranscripts(of: applied.result)
                return Self.report(show, .updated(applied.result), title: feed.title, feedURL: applied.feedURL)
            }
        } catch is CancellationError {
            return Self.report(show, .cancelled)
        } catch {
            let failure = error as? RefreshFailure ?? RefreshFailure(kind: .other, message: String(describing: error))
            // The show may have been unsubscribed meanwhile: then there is nothing to record on.
            try? await store.recordRefresh(of: show.id, outcome: .failed(failure))
            return Self.report(show, .failed(failure))
        }
    }

    /// Fetches (or reads from the cache) the transcripts of the newest
    /// episodes an apply wrote, and indexes them. Failures are not the
    /// refresh's: the feed is in, and the page tries again when opened.
    /// Does nothing without a `TranscriptFetcher`.
    public func indexTranscripts(of result: FeedApplyResult) async {
        guard let transcripts else { return }
        for written in result.writtenWithTranscripts.prefix(fetcher.options.transcriptsPerShow) {
            guard !Task.isCancelled else { return }
            guard let fetched = try? await transcripts.transcript(for: written.episode, from: written.transcripts)
            else { continue }
            try? await store.indexTranscript(fetched.transcript, of: written.episode)
        }
    }

    /// The document's feed and layout; `nil` for the same bytes as `last`'s.
    /// A document that only gained items since gives a feed of those.
    private static func parse(_ document: FeedDocument, since last: FeedDocumentLayout?) throws
        -> (Feed, FeedDocumentLayout)? {
        let digest = document.digest
        switch last?.change(to: document.data, digest: digest) ?? .other {
        case .same:
            return nil
        case .itemsAdded(let partial, let added, let kept):
            // Should the shortened document not read as a feed, the whole one is the judge.
            if let (feed, outline) = try? FeedParser().parseOutlined(partial, url: document.url,
                                                                      httpContentType: document.contentType),
               let last {
                return (feed, last.grown(to: document.data, added: added, kept: kept, partialOutline: outline,
                                         digest: digest))
            }
            return try parse(document)
        case .other:
            return try parse(document)
        }
    }

    private static func parse(_ document: FeedDocument) throws -> (Feed, FeedDocumentLayout) {
        do {
            let (feed, outline) = try FeedParser().parseOutlined(document.data, url: document.url,
                                                                httpContentType: document.contentType)
            return (feed, FeedDocumentLayout(of: document.data, outline: outline, digest: document.digest))
        } catch {
            throw RefreshFailure(error)
        }
    }

    private static func report(_ show: Show, _ outcome: ShowRefreshReport.Outcome, title: String? = nil,
                               feedURL: URL? = nil) -> ShowRefreshReport {
        let feedURL = feedURL ?? show.feedURL
        return ShowRefreshReport(showID: show.id, title: title ?? show.title, feedURL: feedURL,
                                 movedFrom: feedURL == show.feedURL ? nil : show.feedURL, outcome: outcome)
    }
}
