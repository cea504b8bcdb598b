import Foundation

/// Builds a large synthetic library and times the queries the UI runs on it,
/// for the benchmark executable (tests run it small and assert no timings).
public enum LibraryQueryBenchmark {
    /// Fills an empty library with `shows` shows of `episodesPerShow` episodes
    /// each, in one transaction. The state looks like a long-used library:
    /// most older episodes played, the newest few new, some in progress, some
    /// downloaded, a queue of 50. With `firstShowEpisodes` the first show
    /// (show 1) has that many instead: one long-running show among many.
    public static func fill(_ store: LibraryStore, shows: Int, episodesPerShow: Int,
                            firstShowEpisodes: Int? = nil) async throws {
        try await store.fillSynthetic(shows: shows, episodesPerShow: episodesPerShow, firstShowEpisodes: firstShowEpisodes)
    }

    /// Runs each UI query `runs` times (after one warm-up run) and reports
    /// nearest-rank p50 and p99, measured from the caller's side of the actor,
    /// as the UI would see them. The library must have at least one show.
    public static func measure(_ store: LibraryStore, runs: Int) async throws -> [QueryTiming] {
        let shows = try await store.shows()
        guard let busiest = shows.max(by: { $0.unplayedCount < $1.unplayedCount }) else { return [] }
        let someEpisode = try await store.episodes(of: busiest.id, limit: 1).first?.id
        var timings: [QueryTiming] = []
        func time(_ name: String, _ query: () async throws -> Void) async throws {
            try await query()
            var samples: [Duration] = []
            let clock = ContinuousClock()
            for _ in 0..<runs {
                samples.append(try await clock.measure { try await query() })
            }
            timings.append(QueryTiming(name: name, samples: samples))
        }
        try await time("shows with unplayed and new counts") { _ = try await store.shows() }
        try await time("a show's episodes, newest first, first page") {
            _ = try await store.episodes(of: busiest.id, limit: 50)
        }
        try await time("a show's episodes, oldest first, fourth page") {
            _ = try await store.episodes(of: busiest.id, sort: .oldestFirst, limit: 50, offset: 150)
        }
        try await time("a show's unplayed episodes") {
            _ = try await store.episodes(of: busiest.id, filter: .unplayed, limit: 50)
        }
        try await time("new episodes across shows") { _ = try await store.newEpisodes(limit: 50) }
        try await time("in-progress episodes") { _ = try await store.inProgressEpisodes(limit: 50) }
        try await time("downloaded episodes") { _ = try await store.downloadedEpisodes(limit: 50) }
        try await time("the queue") { _ = try await store.queue() }
        if let someEpisode {
            try await time("one episode with its media and chapters") { _ = try await store.episode(someEpisode) }
        }
        return timings
    }
}

extension LibraryStore {
    /// The bulk insert behind `LibraryQueryBenchmark.fill`: cached prepared
    /// statements in one transaction, no feed model in between.
    func fillSynthetic(shows: Int, episodesPerShow defaultEpisodesPerShow: Int, firstShowEpisodes: Int? = nil) throws {
        let now = Date().databaseSeconds
        let description = String(repeating: "A synthetic episode description for the benchmark. ", count: 6)
        // Titles as long as real ones (most are 40–90 characters), which
        // wrap in the show page's rows: a short title costs GTK far less to
        // measure and would flatter the scroll figure.
        let topics = [
            "Listener questions", "What we got wrong about the new desktop, and what finally fixed it",
            "A long conversation with the maintainers of the sound server", "News",
            "Why the simplest tools last, told by three people who built them",
            "From the archive: the first episode we ever recorded, remastered with new notes",
        ]
        try connection.transaction {
            var episodeNumber = 0
            var queued: [EpisodeID] = []
            for show in 0..<shows {
                try connection.execute("""
                    INSERT INTO shows (feed_url, title, description, image_url, subscribed, last_refreshed)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, ["https://feeds.example.org/\(show).xml", "Show \(show)", description,
                          "https://images.example.org/\(show).jpg", now, now])
                let showID = ShowID(rawValue: connection.lastInsertedRowID)
                let episodesPerShow = show == 0 ? firstShowEpisodes ?? defaultEpisodesPerShow : defaultEpisodesPerShow
                for index in 0..<episodesPerShow {
                    episodeNumber += 1
                    // Oldest first, a day apart, shows interleaved; the newest
                    // three of a show are new, the older 60 % played.
                    let age = episodesPerShow - 1 - index
                    let published = now - Int64(age) * 86_400 - Int64(show) * 60
                    let played = age >= 3 && index < episodesPerShow * 6 / 10
                    try connection.execute("""
                        INSERT INTO episodes (show_id, identity, content_hash, guid, title, published, duration,
                            description, played, is_new, first_seen)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [showID, "guid:\(show)-\(index)", Int64(episodeNumber), "\(show)-\(index)",
                              "Episode \(index) of show \(show): \(topics[index % topics.count])", published, Double(1800 + index % 3600), description,
                              played, age < 3, published])
                    let episodeID = EpisodeID(rawValue: connection.lastInsertedRowID)
                    try connection.execute("""
                        INSERT INTO enclosures (episode_id, position, url, mime_type, length) VALUES (?, 0, ?, ?, ?)
                        """, [episodeID, "https://media.example.org/\(show)/\(index).mp3", "audio/mpeg",
                              Int64(30_000_000)])
                    if !played && episodeNumber % 97 == 0 {
                        try connection.execute("""
                            INSERT INTO resume_positions (episode_id, position, duration, updated) VALUES (?, ?, ?, ?)
                            """, [episodeID, 600.0, 1800.0, Double(published)])
                    }
                    if episodeNumber % 53 == 0 {
                        try connection.execute("""
                            INSERT INTO downloads (episode_id, state, path, bytes, total, updated)
                            VALUES (?, 'complete', ?, ?, ?, ?)
                            """, [episodeID, "/tmp/trackcast-bench/\(episodeID.rawValue).mp3", Int64(30_000_000),
                                  Int64(30_000_000), published])
                    }
                    if !played && queued.count < 50 && episodeNumber % 11 == 0 { queued.append(episodeID) }
                }
            }
            try QueueOrder(connection: connection).save(queued)
        }
    }
}
