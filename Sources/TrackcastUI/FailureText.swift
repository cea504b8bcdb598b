import TrackcastCore
import TrackcastLibrary

/// What to tell the user when something fails, in their language. The
/// playback and library layers classify failures and keep English details
/// for logs; the words on screen are chosen here.
enum FailureText {
    static func subtitles(_ failure: SubtitleFileCheck.Failure) -> String {
        switch failure {
        case .unreadable: tr("The file could not be read.")
        case .tooLarge: tr("The file is too large to be subtitles.")
        case .noCues: tr("It holds no subtitles Trackcast can read (SubRip or WebVTT).")
        }
    }

    static func playback(_ error: PlaybackError) -> String {
        switch error {
        case .offline(.hostNotFound):
            tr("The server could not be found. Check your internet connection.")
        case .offline(.connectionRefused):
            tr("The server refused the connection. Try again later.")
        case .offline(.networkUnreachable):
            tr("The network is unreachable. Check your internet connection.")
        case .timeout:
            tr("The server took too long to respond. Try again later.")
        case .httpStatus(404), .httpStatus(410):
            tr("The episode is no longer available from its server.")
        case .httpStatus(401), .httpStatus(403):
            tr("The server does not allow access to this episode.")
        case .httpStatus(let status) where status >= 500:
            tr("The server had a problem. Try again later.")
        case .httpStatus:
            tr("The server answered with an error.")
        case .connectionLost:
            tr("The connection was lost while downloading. Try again.")
        case .missingCodec(let what):
            String(format: tr("A plug-in to play this is not installed: %@."), what)
        case .unsupportedMedia:
            tr("This is not a media format Trackcast can play.")
        case .corruptMedia:
            tr("The media file is damaged or incomplete.")
        case .fileNotFound:
            tr("The file could not be found.")
        case .other:
            tr("Playback failed.")
        }
    }

    /// Why subscribing to a feed failed; nil when there is nothing more
    /// specific to say than that it failed.
    static func subscription(_ error: any Error) -> String? {
        guard let failure = error as? RefreshFailure else { return nil }
        switch failure.kind {
        case .network: return tr("The server could not be reached.")
        case .timeout: return tr("The server took too long to respond.")
        case .httpStatus: return tr("The server answered with an error.")
        case .invalidFeed: return tr("This address is not a podcast feed.")
        case .tooLarge: return tr("The feed is too large.")
        case .tooManyRedirects: return tr("The server redirected too many times.")
        case .unreadableFile: return tr("The file cannot be read.")
        default: return nil
        }
    }

    /// What a show's tile and page say while its feed's last refresh failed.
    static func refresh(_ failure: RefreshFailure) -> String {
        String(format: tr("Could not refresh: %@"), subscription(failure) ?? failure.message)
    }

    /// Why a download failed; nil when the error is not a download's or
    /// there is nothing more specific to say.
    static func download(_ error: any Error) -> String? {
        guard let failure = error as? DownloadError else { return nil }
        switch failure {
        case .httpStatus(404), .httpStatus(410):
            return tr("The episode is no longer available from its server.")
        default:
            break
        }
        switch failure.kind {
        case .network: return tr("The server could not be reached.")
        case .timeout: return tr("The server took too long to respond.")
        case .httpStatus: return tr("The server answered with an error.")
        case .tooManyRedirects: return tr("The server redirected too many times.")
        case .incomplete: return tr("The download stopped before the end. Download again to resume it.")
        case .diskFull: return tr("There is not enough free disk space.")
        case .unwritable: return tr("The downloads folder cannot be written.")
        case .unavailable: return tr("The episode has no media file to download.")
        case .cancelled: return nil
        }
    }

    /// Why an episode's transcript could not be shown.
    static func transcript(_ error: any Error) -> String {
        switch error as? TranscriptFetcher.Failure {
        case .status(404), .status(410): tr("The transcript is no longer available from its server.")
        case .status: tr("The server answered with an error.")
        case .timeout: tr("The server took too long to respond.")
        case .network: tr("The server could not be reached.")
        case .tooManyRedirects: tr("The server redirected too many times.")
        case .tooLarge: tr("The transcript is too large.")
        case .unreadable: tr("The transcript could not be read.")
        case .noReadableTranscript, nil: tr("The transcript could not be loaded.")
        }
    }

    /// Why a directory search failed.
    static func directorySearch(_ error: any Error) -> String {
        switch error as? DirectorySearchError {
        case .offline: tr("The podcast directory could not be reached. Check your internet connection.")
        case .timeout: tr("The podcast directory took too long to respond. Try again later.")
        case .httpStatus(401), .httpStatus(403): tr("The podcast directory refused the search. Check the Podcast Index key and secret.")
        case .httpStatus(let status) where status >= 500: tr("The podcast directory had a problem. Try again later.")
        case .httpStatus: tr("The podcast directory answered with an error.")
        case .badResponse, nil: tr("The podcast directory sent an answer Trackcast cannot read.")
        }
    }
}
