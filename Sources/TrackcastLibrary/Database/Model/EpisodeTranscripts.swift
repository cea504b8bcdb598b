/// The transcripts an episode lists, by the episode's library id.
public struct EpisodeTranscripts: Sendable, Equatable {
    public let episode: EpisodeID
    public let transcripts: [FeedTranscript]

    public init(episode: EpisodeID, transcripts: [FeedTranscript]) {
        self.episode = episode
        self.transcripts = transcripts
    }
}
