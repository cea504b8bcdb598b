/// The order of a show's episode list, by publication date (undated episodes
/// count as oldest; equal dates keep the order the library first saw them in).
public enum EpisodeSort: Sendable, Equatable, CaseIterable {
    case newestFirst
    case oldestFirst
}
