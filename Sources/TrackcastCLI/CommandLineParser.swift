import Foundation
import TrackcastCore

/// Turns argv (without the program name) into an `Invocation`.
///
/// Global options come before the command. The first other word is a
/// command when it names one; otherwise it must look like something to play
/// (a URI, a path, a file name) and the window opens with it, so a mistyped
/// command is an error rather than a file the player cannot find.
public struct CommandLineParser {
    /// The headless commands the executable offers.
    public let commands: [any CLICommand.Type]
    private let fileExists: (String) -> Bool

    public init(commands: [any CLICommand.Type],
                fileExists: @escaping (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) {
        self.commands = commands
        self.fileExists = fileExists
    }

    /// Every command and what it does, for `--help`.
    public var commandSummaries: [(usage: String, summary: String)] {
        [("help", tr("Show this help")), ("version", tr("Show the version"))]
            + commands.map { ("\($0.name) \($0.arguments)", $0.summary) }
    }

    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var libraryOption: String?
        var remaining = arguments[...]

        while let word = remaining.first, word.hasPrefix("-"), word != "-" {
            remaining.removeFirst()
            switch word {
            case "--":
                return Invocation(action: .gui(items: Array(remaining)), libraryOption: libraryOption)
            case "-h", "--help":
                return Invocation(action: .help, libraryOption: libraryOption)
            case "--version":
                return Invocation(action: .version, libraryOption: libraryOption)
            case "--gapplication-service":
                return Invocation(action: .dbusService, libraryOption: libraryOption)
            case "--add-podcast":
                return Invocation(action: .addPodcast, libraryOption: libraryOption)
            case "--library":
                guard let value = remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(tr("option --library needs a directory"))
                }
                libraryOption = value
            case _ where word.hasPrefix("--library="):
                let value = String(word.dropFirst("--library=".count))
                guard !value.isEmpty else { throw UsageError(tr("option --library needs a directory")) }
                libraryOption = value
            default:
                throw UsageError(String(format: tr("unknown option '%@'"), word))
            }
        }

        guard let first = remaining.first else {
            return Invocation(action: .gui(items: []), libraryOption: libraryOption)
        }
        if let command = commands.first(where: { remaining.starts(with: $0.words) }) {
            let arguments = Array(remaining.dropFirst(command.words.count))
            return Invocation(action: .command(CommandCall(try command.init(parsing: arguments), arguments: arguments)),
                              libraryOption: libraryOption)
        }
        switch first {
        case "help":
            return Invocation(action: .help, libraryOption: libraryOption)
        case "version":
            return Invocation(action: .version, libraryOption: libraryOption)
        default:
            for item in remaining where !looksPlayable(item) {
                if item == first {
                    throw UsageError(String(format: tr("unknown command '%@'"), item))
                }
                throw UsageError(String(format: tr("'%@' is neither a file nor a URI"), item))
            }
            return Invocation(action: .gui(items: Array(remaining)), libraryOption: libraryOption)
        }
    }

    private func looksPlayable(_ word: String) -> Bool {
        if word.contains("/") || word.contains(".") { return true }
        if word.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil { return true }
        return fileExists(word)
    }

    /// The text `--help` prints, in the user's language.
    public var helpText: String {
        let program = AppIdentity.executable
        // Outside the interpolation below: xgettext reads Swift with its C
        // lexer and cannot see a call inside a string literal.
        let usage = tr("Usage:")
        let options: [(String, String)] = [
            ("--library DIR", String(format: tr("Where the library lives (default: $%@, else $XDG_DATA_HOME/trackcast)"),
                                     LibraryLocation.environmentVariable)),
            ("--add-podcast", tr("Open the window and ask for a podcast to add")),
            ("-h, --help", tr("Show this help")),
            ("--version", tr("Show the version")),
        ]
        return [
            "\(usage) \(program) [OPTIONS] [FILE|URI...]",
            "       \(program) [OPTIONS] COMMAND [ARGS...]",
            "",
            tr("Without a command, opens the Trackcast window and plays the files or URIs given.\nIf Trackcast is already running, they go to that window."),
            "",
            tr("Options:"),
            table(options),
            "",
            tr("Commands:"),
            table(commandSummaries),
            "",
        ].joined(separator: "\n")
    }

    private func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  \($0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.1)" }
            .joined(separator: "\n")
    }
}
