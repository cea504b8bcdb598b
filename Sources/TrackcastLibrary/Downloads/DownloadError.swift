import Foundation

/// Why a download did not finish, worded for the person who asked for it.
public enum DownloadError: Error, Sendable, Equatable, LocalizedError {
    case unknownEpisode(EpisodeID)
    /// The episode has no media file to download.
    case noMedia
    /// The episode's media is not at a web address (libraries written
    /// before feeds were held to web addresses may have one).
    case notWebAddress(URL)
    case network(HTTPError)
    /// The server answered with an error status.
    case httpStatus(Int)
    /// The disk (or the user's quota) is full.
    case diskFull
    /// The server announced a file larger than the free space left.
    case notEnoughSpace(needed: Int64, available: Int64)
    /// Another file system error, with the system's message.
    case file(String)
    /// The transfer ended before the length the server announced.
    case incomplete(expected: Int64, received: Int64)
    /// The server answered a resume with a range other than the one asked for.
    case unexpectedRange(String)
    case cancelled

    /// What kind of failure it is, for choosing the words on screen, as
    /// `RefreshFailure.Kind` does for feeds.
    public enum Kind: String, Sendable, Equatable {
        /// No connection: refused, reset, no network, TLS.
        case network
        /// The server stopped answering or sending.
        case timeout
        /// The server answered with an error status (404, 410, 500, …).
        case httpStatus = "http-status"
        case tooManyRedirects = "too-many-redirects"
        /// The transfer ended short of the length the server announced.
        case incomplete
        /// No room for the file.
        case diskFull = "disk-full"
        /// The downloads folder cannot be written.
        case unwritable
        case cancelled
        /// Nothing to download, or an address that is not a web address.
        case unavailable
    }

    public var kind: Kind {
        switch self {
        case .unknownEpisode, .noMedia, .notWebAddress: .unavailable
        case .network(.timeout): .timeout
        case .network(.tooManyRedirects): .tooManyRedirects
        case .network(.network): .network
        case .network(.tooLarge), .network(.cancelled), .cancelled: .cancelled
        case .httpStatus: .httpStatus
        case .diskFull, .notEnoughSpace: .diskFull
        case .file: .unwritable
        case .incomplete, .unexpectedRange: .incomplete
        }
    }

    public var errorDescription: String? {
        switch self {
        case .unknownEpisode(let id): "There is no \(id) in the library."
        case .noMedia: "The episode has no media file."
        case .notWebAddress(let url): "Only web addresses are downloaded, not \(url.absoluteString)."
        case .network(.timeout(.connect)): "The server did not answer in time."
        case .network(.timeout): "The server stopped sending the file."
        case .network(.tooManyRedirects(let limit)): "The server redirected more than \(limit) times."
        case .network(.network(let message)): message
        case .network(.tooLarge), .network(.cancelled), .cancelled: "The download was cancelled."
        case .httpStatus(let status): "The server answered \(status) instead of sending the file."
        case .diskFull: "The disk is full."
        case .notEnoughSpace(let needed, let available):
            "The file needs \(Self.size(needed)) but the disk has \(Self.size(available)) free."
        case .file(let message): message
        case .incomplete(let expected, let received): "The download stopped at \(received) of \(expected) bytes."
        case .unexpectedRange(let range): "The server sent the wrong part of the file (\(range))."
        }
    }

    /// As g_format_size writes a size in English (decimal units, one
    /// decimal, a no-break space), which the window shows through GLib
    /// (`ByteSize`); these messages are English anyway, and the library
    /// builds without GLib.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(max(bytes, 0)) bytes" }
        let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f", value) + "\u{A0}" + units[unit]
    }
}
