import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast feed parse FILE|URL --json`: parses a feed without touching the
/// library and prints what Trackcast understood of it.
public struct FeedParseCommand: CLICommand {
    public static let words = ["feed", "parse"]
    public static var summary: String { tr("Parse a feed and print it as JSON, without subscribing") }
    public static let arguments = "FILE|URL --json"
    public static let allocatesInOneBurst = true

    let source: String
    /// The last feed printed, never released (see `run`).
    @MainActor private static var keptUntilExit: Feed?

    public init(parsing arguments: [String]) throws(UsageError) {
        let positional = arguments.filter { $0 != "--json" }
        guard positional.count == 1, let source = positional.first, !source.hasPrefix("-") else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        guard arguments.contains("--json") else {
            throw UsageError(tr("feed parse prints JSON only; add --json"))
        }
        self.source = source
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let feed = try await parsed()
            context.printJSON(FeedJSON(feed).document)
            // The process ends when the command returns, and its memory goes back whole:
            // the feed's thousands of strings and URLs need not be released one by one
            // first (28 M instructions, 4 % of the command, on a 10.8 MB feed).
            Self.keptUntilExit = feed
            return 0
        } catch {
            let message = switch error {
            case let failure as RefreshFailure: failure.message
            case let failure as CommandFailure: failure.message
            default: error.localizedDescription
            }
            context.printError("\(source): \(message)")
        }
        return 1
    }

    /// In a function of its own so that the feed's bytes are let go before the JSON is written.
    private func parsed() async throws -> Feed {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let client = HTTPClient(userAgent: "\(AppIdentity.name)/\(AppIdentity.version)")
            let (data, finalURL, contentType) = try await FeedFetcher.download(url, client: client)
            return try FeedParser().parse(data, url: finalURL, httpContentType: contentType)
        }
        let file = URL(string: source).flatMap { $0.isFileURL ? $0 : nil }
            ?? URL(fileURLWithPath: source)
        // Mapped, not read: read, a large feed was copied into fresh memory, the
        // process's dearest kind (MappedFile).
        let mapped = try await Task.detached { try MappedFile(contentsOf: file) }.value
        let parse = Result { () throws(FeedParseError) in try FeedParser().parse(mapped.bytes, url: file) }
        // Whatever the parse made of the zeros that stand for what was cut off.
        guard !mapped.wasCutShort else {
            throw CommandFailure(tr("the file was cut short while it was read; try again once it is written"))
        }
        return try parse.get()
    }
}
