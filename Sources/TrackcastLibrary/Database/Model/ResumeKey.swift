import Foundation

/// What a resume position belongs to: a library episode, or a file or stream
/// that was opened directly and is not in the library.
public enum ResumeKey: Hashable, Sendable {
    case episode(EpisodeID)
    case uri(URL)
}
