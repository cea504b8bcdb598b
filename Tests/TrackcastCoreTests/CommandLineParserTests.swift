import Testing
import TrackcastCLI

@Suite("Command-line parsing")
struct CommandLineParserTests {
    private let parser = CommandLineParser(commands: [FeedParseCommand.self], fileExists: { $0 == "existing" })

    @Test("no arguments opens the window")
    func empty() throws {
        #expect(try parser.parse([]) == Invocation(action: .gui(items: [])))
    }

    @Test("files and URIs open the window with them")
    func items() throws {
        #expect(try parser.parse(["episode.mp3", "https://example.com/feed.xml", "existing", "/tmp/x"])
                == Invocation(action: .gui(items: ["episode.mp3", "https://example.com/feed.xml", "existing", "/tmp/x"])))
        #expect(try parser.parse(["--", "--odd-name"]) == Invocation(action: .gui(items: ["--odd-name"])))
    }

    @Test("help and version, as options and as commands")
    func helpAndVersion() throws {
        for arguments in [["--help"], ["-h"], ["help"], ["--library", "/l", "--help"]] {
            #expect(try parser.parse(arguments).action == .help)
        }
        #expect(try parser.parse(["--version"]).action == .version)
        #expect(try parser.parse(["version"]).action == .version)
    }

    @Test("D-Bus activation starts the application as a service")
    func dbusService() throws {
        #expect(try parser.parse(["--gapplication-service"]).action == .dbusService)
    }

    @Test("--add-podcast, the desktop file's action, keeps the library option before it")
    func addPodcast() throws {
        #expect(try parser.parse(["--add-podcast"]).action == .addPodcast)
        #expect(try parser.parse(["--library", "/l", "--add-podcast"]) == Invocation(action: .addPodcast, libraryOption: "/l"))
        #expect(parser.helpText.contains("--add-podcast"))
    }

    @Test("--library in both spellings applies to whatever follows")
    func libraryOption() throws {
        #expect(try parser.parse(["--library", "/l"]) == Invocation(action: .gui(items: []), libraryOption: "/l"))
        #expect(try parser.parse(["--library=/l", "a.mp3"])
                == Invocation(action: .gui(items: ["a.mp3"]), libraryOption: "/l"))
    }

    @Test("bad command lines say what is wrong", arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["-x"], "unknown option '-x'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["a.mp3", "frobnicate"], "'frobnicate' is neither a file nor a URI"),
        (["--library"], "option --library needs a directory"),
        (["--library="], "option --library needs a directory"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try parser.parse(arguments) }
    }

    @Test("a command of two words takes the arguments after them")
    func commands() throws {
        let invocation = try parser.parse(["--library", "/l", "feed", "parse", "show.xml", "--json"])
        #expect(invocation.libraryOption == "/l")
        guard case .command(let call) = invocation.action else {
            Issue.record("expected a command, got \(invocation.action)")
            return
        }
        #expect(call.command is FeedParseCommand)
        #expect(call.arguments == ["show.xml", "--json"])
    }

    @Test("a command rejects bad arguments before anything runs", arguments: [
        ["feed", "parse"], ["feed", "parse", "a.xml"], ["feed", "parse", "a.xml", "b.xml", "--json"],
    ])
    func commandUsage(arguments: [String]) {
        #expect(throws: UsageError.self) { try parser.parse(arguments) }
    }

    @Test("help lists every command")
    func helpText() {
        for command in parser.commandSummaries {
            #expect(parser.helpText.contains("  \(command.usage) "))
        }
        #expect(parser.helpText.contains("feed parse FILE|URL --json"))
        #expect(parser.helpText.hasPrefix("Usage: trackcast"))
    }
}

@Suite("play command arguments")
struct PlayOptionsTests {
    @Test("a URI, a start and a rate")
    func full() throws {
        let options = try PlayOptions(parsing: ["https://example.com/e.mp3", "--start", "12.5", "--rate", "1.5"])
        #expect(options.uri == "https://example.com/e.mp3")
        #expect(options.start == 12.5)
        #expect(options.rate == 1.5)
    }

    @Test("--skip-silence and --voice-boost, each off unless given")
    func listeningEffects() throws {
        let both = try PlayOptions(parsing: ["e.mp3", "--skip-silence", "--voice-boost"])
        #expect(both.skipsSilence && both.boostsVoice)
        let neither = try PlayOptions(parsing: ["e.mp3"])
        #expect(!neither.skipsSilence && !neither.boostsVoice)
        #expect(try PlayOptions(parsing: ["--voice-boost", "e.mp3"]).boostsVoice)
    }

    @Test("a path becomes a file URI, relative to the current directory")
    func path() throws {
        #expect(try PlayOptions(parsing: ["a b.mp3"], currentDirectory: "/tmp").uri == "file:///tmp/a%20b.mp3")
        #expect(try PlayOptions(parsing: ["/x/y.opus"]).uri == "file:///x/y.opus")
        #expect(try PlayOptions(parsing: ["y.opus"]).rate == 1)
    }

    @Test("mistakes are usage errors", arguments: [
        [], ["--start"], ["a.mp3", "--start", "-1"], ["a.mp3", "--rate", "0.1"], ["a.mp3", "--loud"], ["a", "b"],
    ])
    func mistakes(arguments: [String]) {
        #expect(throws: UsageError.self) { try PlayOptions(parsing: arguments) }
    }

    @Test("a source that is no file or web address is refused before anything plays", arguments: [
        "v4l2:///dev/video0", "udp://0.0.0.0:5004", "fd://0", "rtsp://127.0.0.1/cam",
    ])
    func refusedScheme(uri: String) {
        #expect(throws: UsageError.self) { try PlayOptions(parsing: [uri]) }
    }
}
