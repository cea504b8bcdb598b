import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast export-opml [FILE]`: writes the subscriptions as OPML 2.0, to
/// FILE (replaced atomically) or to standard output.
public struct ExportOPMLCommand: CLICommand {
    public static let words = ["export-opml"]
    public static var summary: String { tr("Write the subscriptions as an OPML file") }
    public static let arguments = "[FILE]"

    let file: String?

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.count <= 1, !(arguments.first?.hasPrefix("-") ?? false) else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        file = arguments.first
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            let data = try await library.store.exportOPML()
            guard let file else {
                context.print(String(decoding: data.dropLast(), as: UTF8.self))
                return 0
            }
            try await Task.detached {
                try data.write(to: URL(fileURLWithPath: file), options: .atomic)
            }.value
            let count = try await library.store.shows().count
            context.print(String(format: trn("Exported %d show to %@.", "Exported %d shows to %@.", count), count, file))
            return 0
        } catch {
            context.printError("\(file ?? "-"): \(CommandFailure(error).message)")
            return 1
        }
    }
}
