import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast search TEXT [--json]`: every place in the library whose text
/// holds the words of TEXT (the last one as a prefix), best first. Plain
/// output is one tab-separated line per match: episode number, show,
/// episode title, where (`title`, `notes`, `chapter`, `transcript`), the
/// time in seconds for chapters and transcripts (else `-`), and the
/// snippet with the match between `[` and `]`. Nothing found prints
/// nothing and succeeds.
public struct SearchCommand: CLICommand {
    public static let words = ["search"]
    public static var summary: String { tr("Search titles, show notes, chapters and transcripts") }
    public static let arguments = "TEXT [--json]"

    let text: String
    let json: Bool

    public init(parsing arguments: [String]) throws(UsageError) {
        let positional = arguments.filter { $0 != "--json" }
        // TEXT may be several words, or start with a dash ("-ing"): everything but --json is the text.
        guard !positional.isEmpty else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        text = positional.joined(separator: " ")
        json = arguments.contains("--json")
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            try await indexBacklog(library, context)
            // A whole word typed on a command line is not a prefix being typed.
            let matches = try await library.store.search(SearchQuery(text + " "))
            if json {
                if !matches.isEmpty { context.print(String(SearchMatchJSON(matches).text.dropLast())) }
            } else {
                for match in matches { context.print(Self.line(match)) }
            }
            return 0
        } catch {
            context.printError(CommandFailure(error).message)
            return 1
        }
    }

    /// A library from before the search index is indexed first, saying so on stderr.
    private func indexBacklog(_ library: LibraryAccess, _ context: CommandContext) async throws {
        let backlog = try await library.store.searchIndexBacklog()
        guard !backlog.isDone else { return }
        context.printError(String(format: tr("indexing %lld episodes for search…"), Int64(backlog.remaining)))
        let fetcher = library.transcriptFetcher()
        try await SearchIndexBuilder(store: library.store) { fetcher.cachedTranscript(for: $0, from: $1) }.run()
    }

    static func line(_ match: SearchMatch) -> String {
        [String(match.episode.rawValue), ShowsCommand.oneLine(match.showTitle ?? "-"),
         ShowsCommand.oneLine(match.episodeTitle ?? "-"), match.place.name,
         match.place.time.map(Self.seconds) ?? "-",
         ShowsCommand.oneLine(match.snippet.marked(open: "[", close: "]"))].joined(separator: "\t")
    }

    /// Whole seconds without a fraction; others as Swift writes them (`41.5`).
    static func seconds(_ time: TimeInterval) -> String {
        time == time.rounded() && abs(time) < 1e15 ? String(Int64(time)) : String(time)
    }
}
