import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast sync`: one sync with the server `sync-login` set up; new
/// shows from other devices are fetched, removed ones unsubscribed as
/// `unsubscribe` does (downloads deleted).
public struct SyncCommand: CLICommand {
    public static let words = ["sync"]
    public static var summary: String { tr("Send this library's changes to the sync server and apply other devices'") }
    public static let arguments = ""

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.isEmpty else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            guard try await library.store.syncStatus() != nil else { throw SyncError.notLoggedIn }
            let stored: String?
            do {
                stored = try await context.secrets?.secret(named: SyncSecret.name)
            } catch {
                throw CommandFailure(String(format: tr("the keyring cannot be reached: %@"), String(describing: error)))
            }
            guard let password = stored else { throw SyncError.noPassword }
            let report = try await Synchronizer(store: library.store, client: library.client).sync(password: password)
            let added = try await library.store.shows().filter { report.addedShows.contains($0.id) }
            _ = await library.refresher().refresh(added)
            let folder = DownloadFolder(try await library.downloader().directory)
            let files = report.removedShows.flatMap(\.files)
            _ = await Task.detached { folder.removeFiles(files) }.value
            context.print("sync: " + report.summary)
            return 0
        } catch let error as SyncError {
            context.printError(String(format: tr("sync failed: %@"), error.message))
            return 1
        } catch {
            context.printError(String(format: tr("sync failed: %@"), CommandFailure(error).message))
            return 1
        }
    }
}
