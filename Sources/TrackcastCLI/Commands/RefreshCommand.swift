import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast refresh [SHOW]`: fetches every show's feed (or one show's) and
/// prints a line per show as it finishes. Exits 1 if any show failed.
public struct RefreshCommand: CLICommand {
    public static let words = ["refresh"]
    public static var summary: String { tr("Fetch new episodes of every show, or of one") }
    public static let arguments = "[SHOW]"

    let show: ShowReference?

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.count <= 1, !(arguments.first?.hasPrefix("-") ?? false) else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        show = arguments.first.map(ShowReference.init(text:))
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            let shows = if let show { [try await show.resolve(in: library.store)] } else { try await library.store.shows() }
            let print = context.print
            let reports = await library.refresher().refresh(shows) { progress in
                if case .finished(let report) = progress { print(RefreshReportLine.text(report)) }
            }
            try await PlayedDownloadCleanup.run(library)
            let failed = reports.filter(\.isFailure).count
            guard failed == 0 else {
                context.printError(String(format: trn("%d of %d show could not be refreshed",
                                                      "%d of %d shows could not be refreshed", reports.count),
                                          failed, reports.count))
                return 1
            }
            return 0
        } catch {
            context.printError(CommandFailure(error).message)
            return 1
        }
    }
}
