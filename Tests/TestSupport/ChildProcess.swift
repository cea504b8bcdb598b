import Foundation
import Synchronization

/// A process started by a test, with its output collected off the test's thread.
public final class ChildProcess: Sendable {
    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        public let timedOut: Bool
    }

    private let process: Process
    private let output: OutputCollector
    private let errors: OutputCollector

    public var pid: Int32 { process.processIdentifier }

    /// Starts `executable`; `environment` entries are added to (or, with nil
    /// values, removed from) the test's own environment.
    public init(_ executable: URL, arguments: [String] = [], environment: [String: String?] = [:]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        output = OutputCollector()
        errors = OutputCollector()
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// A test that fails half-way must not leave its process behind.
    deinit {
        if process.isRunning { process.terminate() }
    }

    public var isRunning: Bool { process.isRunning }
    public var standardError: String { errors.text }
    public var standardOutput: String { output.text }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    public func waitFor(timeout: Duration, _ condition: @Sendable (ChildProcess) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(self)
    }

    /// Waits for the process to exit, killing it after `timeout`.
    public func finish(timeout: Duration = .seconds(30)) async -> Result {
        let exited = await waitFor(timeout: timeout) { !$0.isRunning }
        if !exited {
            process.terminate()
            process.waitUntilExit()
        }
        output.drain()
        errors.drain()
        return Result(status: process.terminationStatus, standardOutput: output.text,
                      standardError: errors.text, timedOut: !exited)
    }

    /// Runs to completion.
    public static func run(_ executable: URL, arguments: [String] = [], environment: [String: String?] = [:],
                           timeout: Duration = .seconds(30)) async throws -> Result {
        try await ChildProcess(executable, arguments: arguments, environment: environment).finish(timeout: timeout)
    }
}

/// Reads a pipe as data arrives so a chatty child never blocks on a full pipe.
private final class OutputCollector: Sendable {
    let pipe = Pipe()
    private let buffer = Mutex(Data())

    init() {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            // At end of file the handler would otherwise be called again and again.
            if chunk.isEmpty { handle.readabilityHandler = nil }
            self?.buffer.withLock { $0.append(chunk) }
        }
    }

    func drain() {
        pipe.fileHandleForReading.readabilityHandler = nil
        let rest = pipe.fileHandleForReading.readDataToEndOfFile()
        buffer.withLock { $0.append(rest) }
    }

    var text: String { buffer.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A long-running helper (a window manager) started detached through the
/// shell, with its output discarded and every other inherited descriptor
/// closed. Foundation's `Process` learns that a child ended when descriptors
/// it shares with the child close; a helper that keeps them (as a direct
/// child, or a shell's background job) leaves the test waiting forever for
/// processes long gone.
public struct DetachedProcess: Sendable {
    public let pid: Int32

    public static func start(_ command: [String], environment: [String: String?] = [:]) async throws -> DetachedProcess {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let closeInherited = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null"#
        let shell = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"),
                                               arguments: ["-c", "\(closeInherited); \(quoted) </dev/null >/dev/null 2>&1 & echo $!"],
                                               environment: environment, timeout: .seconds(10))
        guard let pid = Int32(shell.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DetachedProcessError(description: "\(command[0]) did not start: \(shell.standardError)")
        }
        return DetachedProcess(pid: pid)
    }

    /// Ends it and waits until it is gone: SIGTERM, then SIGKILL after 2 s
    /// (metacity ignores SIGTERM).
    public func stop() async {
        kill(pid, SIGTERM)
        for attempt in 0..<80 where kill(pid, 0) == 0 {
            if attempt == 40 { kill(pid, SIGKILL) }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

public struct DetachedProcessError: Error, CustomStringConvertible {
    public let description: String
}
