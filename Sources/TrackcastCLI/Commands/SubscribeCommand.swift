import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast subscribe URL|FILE`: fetches a feed and, if it is one, adds it
/// to the library with its episodes.
public struct SubscribeCommand: CLICommand {
    public static let words = ["subscribe"]
    public static var summary: String { tr("Subscribe to a podcast feed") }
    public static let arguments = "URL|FILE"

    let address: String

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.count == 1, let address = arguments.first, !address.hasPrefix("-") else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        self.address = address
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            guard let url = FeedAddress.url(from: address) else {
                throw CommandFailure(String(format: tr("'%@' is not a web address or a file"), address))
            }
            let library = try await LibraryAccess.open(context)
            let refresher = library.refresher()
            let result = try await refresher.subscribe(to: url)
            // What the episodes say is searchable once the command ends.
            if let applied = result.applied { await refresher.indexTranscripts(of: applied) }
            let title = result.show.title ?? result.show.feedURL.absoluteString
            let id = String(result.show.id.rawValue)
            if let applied = result.applied {
                let count = applied.inserted
                context.print(String(format: trn("Subscribed to “%@” (show %@, %d episode).",
                                                 "Subscribed to “%@” (show %@, %d episodes).", count), title, id, count))
            } else {
                context.print(String(format: tr("Already subscribed to “%@” (show %@)."), title, id))
            }
            return 0
        } catch {
            context.printError("\(address): \(CommandFailure(error).message)")
            return 1
        }
    }
}
