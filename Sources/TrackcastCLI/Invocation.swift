/// What the user asked for on the command line.
public struct Invocation: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// Open the window, handing it these files or URIs (possibly none).
        case gui(items: [String])
        /// Started by D-Bus activation (the desktop file's DBusActivatable):
        /// run the application without opening a window until asked.
        case dbusService
        /// Open the window with the add-podcast dialog (the desktop file's
        /// "Add Podcast" action, for launchers that run its Exec line).
        case addPodcast
        case help
        case version
        /// A headless subcommand, its arguments already parsed.
        case command(CommandCall)
    }

    public var action: Action
    /// The `--library DIR` option, if given.
    public var libraryOption: String?

    public init(action: Action, libraryOption: String? = nil) {
        self.action = action
        self.libraryOption = libraryOption
    }
}

/// A command line that cannot be carried out; printed on stderr, exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A parsed subcommand. Equal when it is the same command with the same arguments.
public struct CommandCall: Equatable, Sendable {
    public let command: any CLICommand
    public let arguments: [String]

    public init(_ command: any CLICommand, arguments: [String]) {
        self.command = command
        self.arguments = arguments
    }

    public static func == (lhs: CommandCall, rhs: CommandCall) -> Bool {
        type(of: lhs.command).name == type(of: rhs.command).name && lhs.arguments == rhs.arguments
    }
}
