import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast download EPISODE`: downloads an episode's media (EPISODE is
/// the number `episodes` lists) and prints the file's path. An interrupted
/// download resumes where it stopped. On a terminal, progress goes to stderr.
public struct DownloadCommand: CLICommand {
    public static let words = ["download"]
    public static var summary: String { tr("Download an episode, resuming an interrupted download") }
    public static let arguments = "EPISODE"

    let episode: EpisodeID

    public init(parsing arguments: [String]) throws(UsageError) {
        guard arguments.count == 1, let number = arguments.first.flatMap({ Int64($0) }) else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@ (the episode's number)"), Self.name, Self.arguments))
        }
        episode = EpisodeID(rawValue: number)
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        do {
            let library = try await LibraryAccess.open(context)
            let downloader = try await library.downloader()
            let showsProgress = isatty(STDERR_FILENO) == 1
            let file = try await downloader.download(episode) { progress in
                guard showsProgress, let fraction = progress.fraction else { return }
                FileHandle.standardError.write(Data("\r\(Int(fraction * 100))% ".utf8))
            }
            if showsProgress { FileHandle.standardError.write(Data("\r".utf8)) }
            context.print(file.path)
            return 0
        } catch {
            context.printError(String(format: tr("episode %@: %@"), String(episode.rawValue),
                                      CommandFailure(error).message))
            return 1
        }
    }
}
