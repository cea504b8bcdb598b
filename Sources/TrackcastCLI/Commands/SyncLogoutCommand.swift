import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast sync-logout`: forgets the password and the sync state; the library stays.
public struct SyncLogoutCommand: CLICommand {
    public static let words = ["sync-logout"]
    public static var summary: String { tr("Log out of the sync server (the library stays)") }
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
            let status = try await library.store.syncStatus()
            if let secrets = context.secrets { try await secrets.remove(named: SyncSecret.name) }
            try await library.store.stopSync()
            context.print(status.map { String(format: tr("Logged out of %@; the library stays."), $0.account.server.absoluteString) }
                          ?? tr("Not logged in."))
            return 0
        } catch {
            context.printError(CommandFailure(error).message)
            return 1
        }
    }
}
