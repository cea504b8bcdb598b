import Foundation
import TrackcastLibrary

/// One headless subcommand, e.g. `trackcast feed parse FILE --json`.
///
/// A command parses its own arguments (so a mistake is reported before
/// anything runs or is touched) and then runs on the main actor, which the
/// executable drives with the GLib main loop; blocking work belongs in the
/// library's actors or detached tasks, never in `run` itself.
public protocol CLICommand: Sendable {
    /// The words that select the command: `["shows"]`, or `["feed", "parse"]`.
    static var words: [String] { get }
    /// One line for `--help`, translated.
    static var summary: String { get }
    /// The arguments after the command's words, e.g. "FILE|URL [--json]".
    static var arguments: String { get }
    /// Whether the command's work is one large burst of allocations on one
    /// thread at a time (one feed parsed whole), for which the executable sets
    /// the process's heap up as `BatchHeap` describes. False unless a command says so.
    static var allocatesInOneBurst: Bool { get }

    init(parsing arguments: [String]) throws(UsageError)

    /// Returns the process exit status: 0 on success, 1 when the work failed
    /// (after printing a one-line reason on stderr).
    @MainActor func run(_ context: CommandContext) async -> Int32
}

extension CLICommand {
    public static var name: String { words.joined(separator: " ") }
    public static var allocatesInOneBurst: Bool { false }
}

/// What a running command may use: where the library and its caches are,
/// where to print, and the keyring (which the toolkit-free CLI module only
/// knows as a `SecretStore`).
public struct CommandContext: Sendable {
    public let libraryDirectory: URL
    /// Where fetched transcripts are kept (`CacheLocation`).
    public let cacheDirectory: URL
    /// nil where no keyring was given (tests of parsing).
    public let secrets: (any SecretStore)?
    /// What was piped in: the sync password.
    public let readInput: @Sendable () -> String?
    public let print: @Sendable (String) -> Void
    /// `print` for JSON already in UTF-8 (a feed's, megabytes of it), written
    /// as it stands: neither made into a string first nor checked for controls
    /// again (`TerminalSafeJSON` has none).
    public let printJSON: @Sendable (TerminalSafeJSON) -> Void
    public let printError: @Sendable (String) -> Void

    /// Without `printJSON`, JSON goes to `print` as a string; without
    /// `cacheDirectory`, caches go in the library's `cache` folder.
    public init(libraryDirectory: URL, cacheDirectory: URL? = nil,
                print: @escaping @Sendable (String) -> Void,
                printJSON: (@Sendable (TerminalSafeJSON) -> Void)? = nil,
                printError: @escaping @Sendable (String) -> Void,
                secrets: (any SecretStore)? = nil,
                readInput: @escaping @Sendable () -> String? = { nil }) {
        self.libraryDirectory = libraryDirectory
        self.cacheDirectory = cacheDirectory ?? libraryDirectory.appendingPathComponent("cache", isDirectory: true)
        self.secrets = secrets
        self.readInput = readInput
        self.print = print
        self.printJSON = printJSON ?? { print(String(decoding: $0.utf8, as: UTF8.self)) }
        self.printError = printError
    }

    /// The usual context: standard output and standard error.
    public static func standard(libraryDirectory: URL, cacheDirectory: URL,
                                secrets: (any SecretStore)? = nil) -> CommandContext {
        CommandContext(libraryDirectory: libraryDirectory, cacheDirectory: cacheDirectory,
                       print: { FileHandle.standardOutput.write(Data((TerminalText.escaped($0) + "\n").utf8)) },
                       printJSON: { document in
                           // Written as it is made, through one buffer of a quarter megabyte: whole, a
                           // feed's JSON took megabytes of fresh pages, each faulted in and zeroed.
                           document.write(inPiecesOf: 256 * 1024) { piece in
                               try? FileHandle.standardOutput.write(contentsOf: UnsafeRawBufferPointer(piece))
                           }
                           try? FileHandle.standardOutput.write(contentsOf: [UInt8(ascii: "\n")])
                       },
                       printError: {
                           FileHandle.standardError.write(Data(("trackcast: " + TerminalText.escaped($0) + "\n").utf8))
                       },
                       secrets: secrets,
                       readInput: { readLine(strippingNewline: true) })
    }
}
