import Foundation

/// One place a search found: an episode, where in it, and the words around.
public struct SearchMatch: Sendable, Equatable {
    public let episode: EpisodeID
    public let show: ShowID
    public let showTitle: String?
    public let episodeTitle: String?
    public let place: SearchPlace
    public let snippet: SearchSnippet

    public init(episode: EpisodeID, show: ShowID, showTitle: String?, episodeTitle: String?,
                place: SearchPlace, snippet: SearchSnippet) {
        self.episode = episode
        self.show = show
        self.showTitle = showTitle
        self.episodeTitle = episodeTitle
        self.place = place
        self.snippet = snippet
    }
}
