import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast unsubscribe SHOW`: removes a show, its episodes and their downloads.
public struct UnsubscribeCommand: CLICommand {
    public static let words = ["unsubscribe"]
    public static var summary: String { tr("Remove a show, its episodes and their downloads") }
    public static let arguments = "SHOW"

    let show: ShowReference

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.count == 1, let show = arguments.first, !show.hasPrefix("-") else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        self.show = ShowReference(text: show)
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            let show = try await self.show.resolve(in: library.store)
            let files = try await library.store.downloadFiles(ofShow: show.id)
            let folder = DownloadFolder(try await library.downloader().directory)
            // The library first, in one transaction; then the files, which a
            // crash in between would only leave as strays, never as dangling rows.
            try await library.store.unsubscribe(show.id)
            let removed = await Task.detached { folder.removeFiles(files) }.value
            context.print(String(format: trn("Unsubscribed from “%@” (%d download deleted).",
                                             "Unsubscribed from “%@” (%d downloads deleted).", removed),
                                 show.title ?? show.feedURL.absoluteString, removed))
            return 0
        } catch {
            context.printError("\(show.text): \(CommandFailure(error).message)")
            return 1
        }
    }
}
