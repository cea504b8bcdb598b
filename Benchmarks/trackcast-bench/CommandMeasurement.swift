import Foundation

/// One run of a command to its end, timed from spawn to exit. Its output goes
/// to /dev/null: what is measured is producing it, not reading it.
struct CommandMeasurement {
    let seconds: Double

    static func run(_ executable: URL, _ arguments: [String]) throws -> CommandMeasurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        let start = ContinuousClock.now
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        // Exited normally with status 0: the low 7 bits (the signal) and the status byte are zero.
        guard status == 0 else { throw CommandMeasurementError.failed(command: executable.lastPathComponent, status: status) }
        return CommandMeasurement(seconds: elapsed / .seconds(1))
    }

    /// The fastest of `runs` runs.
    static func best(of runs: Int, _ executable: URL, _ arguments: [String]) throws -> CommandMeasurement {
        try (0..<runs).map { _ in try run(executable, arguments) }.min { $0.seconds < $1.seconds }!
    }
}

enum CommandMeasurementError: Error, CustomStringConvertible {
    case failed(command: String, status: Int32)

    var description: String {
        switch self {
        case .failed(let command, let status): "\(command) ended with wait status \(status)"
        }
    }
}
