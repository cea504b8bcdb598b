/// Why an item cannot play, in classes a person can act on.
public enum PlaybackError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum OfflineReason: Sendable, Equatable {
        /// DNS found no such host (or there is no DNS to ask).
        case hostNotFound
        case connectionRefused
        case networkUnreachable
    }

    /// The server cannot be reached at all.
    case offline(OfflineReason)
    /// The server was reached but did not answer, or sent nothing for too long.
    case timeout
    /// The server answered with an HTTP error status.
    case httpStatus(Int)
    /// The connection broke while the media was downloading.
    case connectionLost
    /// A plug-in to decode it is missing; what, in words ("Opus decoder").
    case missingCodec(String)
    /// Not a media format the player knows.
    case unsupportedMedia
    /// A known format, but damaged or incomplete.
    case corruptMedia
    /// A local file that does not exist or cannot be read.
    case fileNotFound
    /// Anything else, with GStreamer's own message.
    case other(String)

    /// Worth trying again later without changing anything.
    public var isRetryable: Bool {
        switch self {
        case .offline, .timeout, .connectionLost:
            true
        case .httpStatus(let status):
            status >= 500 || status == 408 || status == 429
        case .missingCodec, .unsupportedMedia, .corruptMedia, .fileNotFound, .other:
            false
        }
    }

    /// A short, stable name for scripts and logs, e.g. "http-404", "offline".
    public var code: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timeout"
        case .httpStatus(let status): "http-\(status)"
        case .connectionLost: "connection-lost"
        case .missingCodec: "missing-codec"
        case .unsupportedMedia: "unsupported-media"
        case .corruptMedia: "corrupt-media"
        case .fileNotFound: "file-not-found"
        case .other: "other"
        }
    }

    /// What to tell the user.
    public var message: String {
        switch self {
        case .offline(.hostNotFound):
            "The server could not be found. Check your internet connection."
        case .offline(.connectionRefused):
            "The server refused the connection. It may be down; try again later."
        case .offline(.networkUnreachable):
            "The network is unreachable. Check your internet connection."
        case .timeout:
            "The server took too long to respond. Try again later."
        case .httpStatus(404), .httpStatus(410):
            "The episode is no longer available from its server (HTTP \(statusCode!))."
        case .httpStatus(401), .httpStatus(403):
            "The server does not allow access to this episode (HTTP \(statusCode!))."
        case .httpStatus(let status) where status >= 500:
            "The server had a problem (HTTP \(status)). Try again later."
        case .httpStatus(let status):
            "The server answered with an error (HTTP \(status))."
        case .connectionLost:
            "The connection was lost while downloading. Try again."
        case .missingCodec(let what):
            "This media needs a plug-in that is not installed: \(what)."
        case .unsupportedMedia:
            "This is not a media format Trackcast can play."
        case .corruptMedia:
            "The media file is damaged or incomplete."
        case .fileNotFound:
            "The file could not be found."
        case .other(let text):
            "Playback failed: \(text)"
        }
    }

    /// The HTTP status, for `.httpStatus`.
    public var statusCode: Int? {
        if case .httpStatus(let status) = self { return status }
        return nil
    }

    public var description: String { "\(code): \(message)" }
}
