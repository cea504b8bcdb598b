import Foundation
import TrackcastLibrary

/// Deletes downloads of episodes played long enough ago, when the library's
/// `downloads.delete-played-after-days` setting asks for it.
enum PlayedDownloadCleanup {
    static func run(_ library: LibraryAccess, now: Date = Date()) async throws {
        guard let setting = try await library.store.appSetting(LibraryAccess.deletePlayedAfterDaysSetting),
              let days = Int(setting), days >= 0 else { return }
        _ = try await library.downloader().deletePlayedDownloads(playedBefore: now.addingTimeInterval(-Double(days) * 86_400))
    }
}
