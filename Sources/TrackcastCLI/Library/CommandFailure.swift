import Foundation
import TrackcastCore
import TrackcastLibrary

/// A command that could not do its work: the one line to print on stderr.
struct CommandFailure: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message for any error a library command meets, as a person should read it.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let failure as RefreshFailure: self.init(failure.message)
        case let error as LocalizedError where error.errorDescription != nil: self.init(error.errorDescription!)
        case let error as LibraryStoreError: self.init(Self.describe(error))
        default: self.init(String(describing: error))
        }
    }

    private static func describe(_ error: LibraryStoreError) -> String {
        switch error {
        case .schemaTooNew(let found, let supported):
            String(format: tr("the library was written by a newer Trackcast (schema %d; this one knows up to %d)"),
                   found, supported)
        case .unknownShow(let id):
            String(format: tr("there is no show %@ in the library"), String(id.rawValue))
        case .unknownEpisode(let id):
            String(format: tr("there is no episode %@ in the library"), String(id.rawValue))
        }
    }
}
