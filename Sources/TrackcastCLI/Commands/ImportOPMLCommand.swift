import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast import-opml FILE [--no-refresh]`: subscribes every feed in a
/// subscription list (one transaction), then refreshes the new shows.
public struct ImportOPMLCommand: CLICommand {
    public static let words = ["import-opml"]
    public static var summary: String { tr("Subscribe to the feeds in an OPML file") }
    public static let arguments = "FILE [--no-refresh]"

    let file: String
    let refresh: Bool

    public init(parsing arguments: [String]) throws(UsageError) {
        let positional = arguments.filter { $0 != "--no-refresh" }
        guard positional.count == 1, let file = positional.first, !file.hasPrefix("-") else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        self.file = file
        refresh = !arguments.contains("--no-refresh")
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let path = file
            let data = try await Task.detached { () throws(CommandFailure) -> Data in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CommandFailure(tr("the file cannot be read"))
                }
                return data
            }.value
            let library = try await LibraryAccess.open(context)
            let result = try await library.store.importOPML(data)
            context.print(String(format: trn("Imported %d show (%d already subscribed).",
                                             "Imported %d shows (%d already subscribed).", result.added.count),
                                 result.added.count, result.skipped))
            guard refresh, !result.added.isEmpty else { return 0 }
            var shows: [Show] = []
            for id in result.added {
                if let show = try await library.store.show(id) { shows.append(show) }
            }
            let print = context.print
            // Failures are recorded on their shows and printed; the import itself stands.
            _ = await library.refresher().refresh(shows) { progress in
                if case .finished(let report) = progress { print(RefreshReportLine.text(report)) }
            }
            return 0
        } catch {
            context.printError("\(file): \(CommandFailure(error).message)")
            return 1
        }
    }
}
