import Foundation

/// Why a download did not finish, worded for the person who asked for it.
public enum DownloadError: Error, Sendable, Equatable, LocalizedError {
    case unknownEpisode(EpisodeID)
    /// The episode has no media file to download.
    case noMedia
    case network(HTTPError)
    /// The server answered with an error status.
    case httpStatus(Int)
    /// The disk (or the user's quota) is full.
    case diskFull
    /// Another file system error, with the system's message.
    case file(String)
    /// The transfer ended before the length the server announced.
    case incomplete(expected: Int64, received: Int64)
    /// The server answered a resume with a range other than the one asked for.
    case unexpectedRange(String)
    case cancelled

    public var errorDescription: String? {
        switch self {
        case .unknownEpisode(let id): "There is no \(id) in the library."
        case .noMedia: "The episode has no media file."
        case .network(.timeout): "The server stopped sending the file."
        case .network(.tooManyRedirects(let limit)): "The server redirected more than \(limit) times."
        case .network(.network(let message)): message
        case .network(.tooLarge), .network(.cancelled), .cancelled: "The download was cancelled."
        case .httpStatus(let status): "The server answered \(status) instead of sending the file."
        case .diskFull: "The disk is full."
        case .file(let message): message
        case .incomplete(let expected, let received): "The download stopped at \(received) of \(expected) bytes."
        case .unexpectedRange(let range): "The server sent the wrong part of the file (\(range))."
        }
    }
}
