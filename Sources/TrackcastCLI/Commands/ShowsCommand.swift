import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast shows`: one tab-separated line per show: number, unplayed
/// count, new count, title, feed URL, and the last refresh's error if it failed.
public struct ShowsCommand: CLICommand {
    public static let words = ["shows"]
    public static var summary: String { tr("List the shows in the library") }
    public static let arguments = ""

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.isEmpty else {
            throw UsageError(String(format: tr("usage: trackcast %@"), Self.name))
        }
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            for show in try await library.store.shows() {
                var columns = [String(show.id.rawValue), String(show.unplayedCount), String(show.newCount),
                               Self.oneLine(show.title ?? "-"), show.feedURL.absoluteString]
                if let failure = show.refresh.lastFailure { columns.append(Self.oneLine(failure.message)) }
                context.print(columns.joined(separator: "\t"))
            }
            return 0
        } catch {
            context.printError(CommandFailure(error).message)
            return 1
        }
    }

    /// Tabs and line breaks in a title would break the columns.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\t" || $0.isNewline }).joined(separator: " ")
    }
}
