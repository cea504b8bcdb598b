/// Search matches grouped as the window and GNOME Shell show them: by show,
/// then by episode, each in the order of its best match.
public struct SearchResults: Sendable, Equatable {
    /// One episode's matches, best first.
    public struct Episode: Sendable, Equatable {
        public let id: EpisodeID
        public let title: String?
        public let matches: [SearchMatch]

        /// The best match: where activating the episode goes.
        public var best: SearchMatch { matches[0] }
    }

    public struct Show: Sendable, Equatable {
        public let id: ShowID
        public let title: String?
        public let episodes: [Episode]
    }

    public let shows: [Show]
    /// Every episode, in the order of its best match across shows.
    public let episodes: [Episode]

    /// `matches` as `LibraryStore.search` returns them, best first.
    public init(_ matches: [SearchMatch]) {
        var episodeOrder: [EpisodeID] = []
        var byEpisode: [EpisodeID: [SearchMatch]] = [:]
        for match in matches {
            if byEpisode[match.episode] == nil { episodeOrder.append(match.episode) }
            byEpisode[match.episode, default: []].append(match)
        }
        episodes = episodeOrder.map { id in
            let matches = byEpisode[id]!
            return Episode(id: id, title: matches[0].episodeTitle, matches: matches)
        }
        var showOrder: [ShowID] = []
        var byShow: [ShowID: [Episode]] = [:]
        for episode in episodes {
            let show = episode.best.show
            if byShow[show] == nil { showOrder.append(show) }
            byShow[show, default: []].append(episode)
        }
        shows = showOrder.map { id in
            let episodes = byShow[id]!
            return Show(id: id, title: episodes[0].best.showTitle, episodes: episodes)
        }
    }

    public var isEmpty: Bool { episodes.isEmpty }
}
