import Foundation
import TrackcastCore
import TrackcastLibrary

/// What the library commands share: the open store, one HTTP client, and
/// where downloads go.
struct LibraryAccess: Sendable {
    /// App setting: an absolute folder for downloads instead of `downloads` in the library.
    static let downloadsDirectorySetting = "downloads.directory"
    /// App setting: delete downloads of played episodes this many days after they were played.
    static let deletePlayedAfterDaysSetting = "downloads.delete-played-after-days"

    let store: LibraryStore
    let client: HTTPClient
    let libraryDirectory: URL
    let cacheDirectory: URL

    /// Opens (creating if needed) the library the command line names.
    static func open(_ context: CommandContext) async throws(CommandFailure) -> LibraryAccess {
        do {
            let (store, setAside) = try await LibraryStore.openRecovering(directory: context.libraryDirectory)
            if let setAside {
                let message = switch setAside.reason {
                case .damaged: tr("the library was damaged; it was kept as %@ and a new library was started")
                case .newerVersion: tr("the library is from a newer Trackcast; it was kept as %@ and a new library was started")
                }
                context.printError("trackcast: " + String(format: message, setAside.movedTo.path))
            }
            return LibraryAccess(store: store, client: HTTPClient(userAgent: "Trackcast/\(AppIdentity.version)"),
                                 libraryDirectory: context.libraryDirectory, cacheDirectory: context.cacheDirectory)
        } catch {
            throw CommandFailure(String(format: tr("the library in %@ cannot be opened: %@"),
                                        context.libraryDirectory.path, CommandFailure(error).message))
        }
    }

    /// Refreshes that fetch the newest episodes' transcripts for the search index.
    func refresher() -> FeedRefresher {
        FeedRefresher(store: store, client: client, transcripts: transcriptFetcher())
    }

    /// Transcripts kept where the window keeps them, so each reads the other's.
    func transcriptFetcher() -> TranscriptFetcher {
        TranscriptFetcher(client: client, cacheDirectory: cacheDirectory.appendingPathComponent("transcripts", isDirectory: true),
                          preferredLanguages: Locale.preferredLanguages)
    }

    func downloader() async throws -> Downloader {
        let configured = try await store.appSetting(Self.downloadsDirectorySetting)
            .flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
        return Downloader(store: store, client: client,
                          directory: configured ?? Downloader.defaultDirectory(inLibrary: libraryDirectory))
    }
}
