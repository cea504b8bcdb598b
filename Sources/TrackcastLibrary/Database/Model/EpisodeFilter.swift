/// Which of a show's episodes a list shows.
public enum EpisodeFilter: Sendable, Equatable, CaseIterable {
    case all
    case unplayed
    /// Started (has a resume position) and not played.
    case inProgress
    /// Downloaded completely.
    case downloaded
}
