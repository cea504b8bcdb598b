import Foundation
import TrackcastCore

/// Why a sync did not complete; whatever was pending stays pending.
public enum SyncError: Error, Sendable, Equatable {
    /// No account: log in first.
    case notLoggedIn
    /// The keyring holds no password for the account.
    case noPassword
    /// The server refused the user name or password (401): ask for it again.
    case unauthorized
    /// The address answers neither as a gpodder.net API nor as GPodder Sync.
    case notASyncServer
    /// The server answered with an error status.
    case status(Int)
    /// The server's answer is not what the API describes.
    case malformedAnswer(String)
    /// The request could not be made or completed.
    case network(HTTPError)

    /// One line, as a person should read it.
    public var message: String {
        switch self {
        case .notLoggedIn: tr("not logged in to a sync server (run 'trackcast sync-login URL USER')")
        case .noPassword: tr("the keyring holds no password for the sync server; log in again")
        case .unauthorized: tr("the server refused the user name or password")
        case .notASyncServer: tr("the address is neither a gpodder.net server nor a Nextcloud with GPodder Sync")
        case .status(let status): String(format: tr("the server answered with status %d"), status)
        case .malformedAnswer(let what): String(format: tr("the server's answer could not be read (%@)"), what)
        case .network(let error): RefreshFailure(error).message
        }
    }

    /// Whether retrying later may help (a 401 needs the user instead).
    public var isTransient: Bool {
        switch self {
        case .status(let status): status >= 500 || status == 429 || status == 408
        case .network: true
        case .malformedAnswer: true
        default: false
        }
    }
}
