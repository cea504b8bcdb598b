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
        await output.drain()
        await errors.drain()
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
///
/// A thread of its own does blocking reads, not `readabilityHandler`: on
/// Linux, tearing down that handler's dispatch read source races the
/// descriptor's close and now and then crashes libdispatch's manager thread
/// in `_dispatch_event_loop_drain` (swift-corelibs-libdispatch#949); a full
/// CI run spawning hundreds of `playerctl`s met it.
private final class OutputCollector: Sendable {
    /// What the reading thread shares with the collector; not the collector
    /// itself, whose pipe's write end must close when the collector goes.
    private final class Received: Sendable {
        let data = Mutex(Data())
        let reachedEnd = Atomic(false)
    }

    let pipe = Pipe()
    private let received = Received()

    init() {
        let handle = pipe.fileHandleForReading
        let thread = Thread { [received] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                received.data.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
            received.reachedEnd.store(true, ordering: .releasing)
        }
        thread.name = "child-process-output"
        thread.start()
    }

    /// Waits for the end of the output, which follows the child's exit unless
    /// a process it left behind holds the pipe: then what came within
    /// `timeout` is all there is.
    func drain(timeout: Duration = .seconds(5)) async {
        let deadline = ContinuousClock.now + timeout
        while !received.reachedEnd.load(ordering: .acquiring), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    var text: String { received.data.withLock { String(decoding: $0, as: UTF8.self) } }
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
