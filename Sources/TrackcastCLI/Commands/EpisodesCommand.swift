import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast episodes [SHOW] [--json]`: a show's episodes (every show's,
/// show by show, without SHOW), newest first. Plain output is one
/// tab-separated line per episode: number, date, state, show, title.
public struct EpisodesCommand: CLICommand {
    public static let words = ["episodes"]
    public static var summary: String { tr("List episodes, of one show or all") }
    public static let arguments = "[SHOW] [--json]"

    let show: ShowReference?
    let json: Bool

    public init(parsing arguments: [String]) throws(UsageError) {
        let positional = arguments.filter { $0 != "--json" }
        guard positional.count <= 1, !(positional.first?.hasPrefix("-") ?? false) else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        show = positional.first.map(ShowReference.init(text:))
        json = arguments.contains("--json")
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            let shows = if let show { [try await show.resolve(in: library.store)] } else { try await library.store.shows() }
            var episodes: [EpisodeSummary] = []
            for show in shows {
                episodes += try await library.store.episodes(of: show.id, limit: Int.max)
            }
            if json {
                context.print(String(EpisodeListJSON(episodes).text.dropLast()))
            } else {
                for episode in episodes { context.print(Self.line(episode)) }
            }
            return 0
        } catch {
            context.printError(CommandFailure(error).message)
            return 1
        }
    }

    static func line(_ episode: EpisodeSummary) -> String {
        let date = episode.published.map { Self.day.string(from: $0) } ?? "-"
        return [String(episode.id.rawValue), date, state(of: episode), ShowsCommand.oneLine(episode.showTitle ?? "-"),
                ShowsCommand.oneLine(episode.title ?? "-")].joined(separator: "\t")
    }

    /// new, played, in-progress, downloaded, downloading, download-failed; comma-separated, or "-".
    static func state(of episode: EpisodeSummary) -> String {
        var words: [String] = []
        if episode.isNew { words.append("new") }
        if episode.isPlayed { words.append("played") } else if episode.resumePosition != nil { words.append("in-progress") }
        switch episode.downloadState {
        case .complete?: words.append("downloaded")
        case .downloading?, .queued?: words.append("downloading")
        case .failed?: words.append("download-failed")
        case nil: break
        }
        return words.isEmpty ? "-" : words.joined(separator: ",")
    }

    private static let day: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()
}
