import TrackcastCLI
import TrackcastCore
import TrackcastPlayback

/// `trackcast play URI [--start SECONDS] [--rate R] [--skip-silence] [--voice-boost]`: plays in the terminal,
/// headless. Lives in the executable because the CLI module is toolkit-free
/// and the player is GStreamer; the arguments are parsed by `PlayOptions`.
struct PlayCommand: CLICommand {
    static let words = PlayOptions.words
    static var summary: String { PlayOptions.summary }
    static let arguments = PlayOptions.arguments

    let options: PlayOptions

    init(parsing arguments: [String]) throws(UsageError) {
        options = try PlayOptions(parsing: arguments)
    }

    @MainActor
    func run(_ context: CommandContext) async -> Int32 {
        let player = TerminalPlayer(print: context.print, printError: context.printError)
        return await player.play(options.uri, startingAt: options.start.flatMap(Duration.init(clampingSeconds:)),
                                 rate: PlaybackRate(options.rate),
                                 effects: ListeningEffects(skipsSilence: options.skipsSilence,
                                                           boostsVoice: options.boostsVoice))
    }
}
