/// Where an episode's download stands. The raw values are stored: do not change them.
public enum DownloadState: String, Sendable, Equatable, CaseIterable {
    case queued
    case downloading
    case complete
    case failed
}
