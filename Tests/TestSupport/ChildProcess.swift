import Foundation
import Synchronization

/// A process started by a test, with its output collected off the test's thread.
///
/// Started with `posix_spawn`, not Foundation's `Process`. Swift 6.3's
/// `Process.run()` lists `/proc/self/fd` by copying each entry's whole
/// 256-byte name out of glibc's buffer, which reads past its end now and
/// then and crashes (swift-corelibs-foundation#5472; a full local run of
/// this suite met it). And a child spawned here starts with no signal
/// blocked and every handler at its default, whatever the test runner's
/// thread had.
public final class ChildProcess: Sendable {
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    public struct Result: Sendable {
        /// The exit status, or the signal's number for a process a signal ended.
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        public let timedOut: Bool
    }

    public let pid: pid_t
    private let termination = Mutex<Termination?>(nil)
    private let output: OutputCollector
    private let errors: OutputCollector

    /// Starts `executable`; `environment` entries are added to (or, with nil
    /// values, removed from) the test's own environment. `input`, if given,
    /// is written to its standard input, which is otherwise /dev/null.
    public init(_ executable: URL, arguments: [String] = [], environment: [String: String?] = [:],
                input: Data? = nil) throws {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let stdout = try SocketPair(), stderr = try SocketPair()
        let stdin = try input.map { _ in try SocketPair() }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin.childEnd, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout.childEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.childEnd, 2)
        // Descriptors the test process opened without close-on-exec stay out
        // of the child, or a long-lived child would keep other tests' pipes open.
        for descriptor in Self.openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, as Foundation does: a Ctrl-C for the test run is not the child's.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
        // The child has its own copies now.
        close(stdout.childEnd)
        close(stderr.childEnd)
        if let stdin { close(stdin.childEnd) }
        guard spawned == 0 else {
            close(stdout.parentEnd)
            close(stderr.parentEnd)
            if let stdin { close(stdin.parentEnd) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        pid = child
        output = OutputCollector(reading: stdout.parentEnd)
        errors = OutputCollector(reading: stderr.parentEnd)
        if let input, let stdin { Self.write(input, to: stdin.parentEnd) }
    }

    /// A test that fails half-way must not leave its process behind, nor a zombie.
    deinit {
        guard reap(blocking: false) == nil else { return }
        kill(pid, SIGTERM)
        let pid = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    public var isRunning: Bool { reap(blocking: false) == nil }
    public var standardError: String { errors.text }
    public var standardOutput: String { output.text }

    /// How it ended; nil while it runs.
    public var ended: Termination? { reap(blocking: false) }

    public func terminate() { kill(pid, SIGTERM) }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    public func waitFor(timeout: Duration, _ condition: @Sendable (ChildProcess) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(self)
    }

    /// Waits for the process to exit, ending it after `timeout`: SIGTERM,
    /// then SIGKILL 5 s later. Polls: a blocking wait would hold one of the
    /// few threads Swift's concurrency runs everything on.
    public func finish(timeout: Duration = .seconds(30)) async -> Result {
        let exited = await waitFor(timeout: timeout) { !$0.isRunning }
        if !exited {
            terminate()
            if await !waitFor(timeout: .seconds(5), { !$0.isRunning }) {
                kill(pid, SIGKILL)
                _ = await waitFor(timeout: .seconds(5)) { !$0.isRunning }
            }
        }
        await output.waitForEnd()
        await errors.waitForEnd()
        return Result(status: ended?.status ?? -1, standardOutput: output.text, standardError: errors.text,
                      timedOut: !exited)
    }

    /// Blocks until the process exits; for tests' synchronous helpers.
    @discardableResult
    public func waitUntilExit() -> Termination {
        while true {
            if let termination = reap(blocking: true) { return termination }
        }
    }

    /// Runs to completion.
    public static func run(_ executable: URL, arguments: [String] = [], environment: [String: String?] = [:],
                           timeout: Duration = .seconds(30)) async throws -> Result {
        try await ChildProcess(executable, arguments: arguments, environment: environment).finish(timeout: timeout)
    }

    /// Runs to completion, blocking the calling thread, with `input` on
    /// standard input; for tests' synchronous helpers.
    public static func runSynchronously(_ executable: URL, arguments: [String] = [], input: Data? = nil) throws
        -> (termination: Termination, standardOutput: Data, standardError: String) {
        let process = try ChildProcess(executable, arguments: arguments, input: input)
        let termination = process.waitUntilExit()
        process.output.waitForEndSynchronously()
        process.errors.waitForEndSynchronously()
        return (termination, process.output.data, process.errors.text)
    }

    /// Reaps the child if it has ended. Whoever reaps it records how it
    /// ended; a caller that finds it reaped by another reads that record.
    private func reap(blocking: Bool) -> Termination? {
        if let known = termination.withLock({ $0 }) { return known }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        if result == pid {
            // The wait status: a signal's number in the low 7 bits, else the exit status above them.
            let ended: Termination = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
            termination.withLock { if $0 == nil { $0 = ended } }
        }
        return termination.withLock { $0 }
    }

    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    /// Writes on a thread of its own: the child's output could fill while we still write its input.
    private static func write(_ data: Data, to descriptor: Int32) {
        Thread.detachNewThread {
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            close(descriptor)
        }
    }
}

extension ChildProcess.Termination {
    /// As Foundation's `terminationStatus`: the exit status, or the signal's number.
    public var status: Int32 {
        switch self {
        case .exited(let status), .signalled(let status): status
        }
    }
}

/// A connected pair of stream sockets, both close-on-exec from the start,
/// so no child spawned meanwhile by another test inherits either end.
/// (glibc's `pipe2`, which would do the same for a pipe, is not visible to
/// Swift.) The child's end becomes one of its standard streams.
private struct SocketPair {
    let parentEnd: Int32
    let childEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        parentEnd = ends[0]
        childEnd = ends[1]
    }
}

/// Reads a child's stream as data arrives, so a chatty child never blocks
/// on a full buffer, on a thread of its own with blocking reads, not
/// Foundation's `readabilityHandler`: on Linux, tearing down that handler's
/// dispatch source races the descriptor's close and now and then crashes
/// libdispatch's manager thread (swift-corelibs-libdispatch#949).
private final class OutputCollector: Sendable {
    private let received = Mutex(Data())
    private let reachedEnd = Atomic(false)
    private let ended = DispatchSemaphore(value: 0)

    init(reading descriptor: Int32) {
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                received.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
            close(descriptor)
            reachedEnd.store(true, ordering: .releasing)
            ended.signal()
        }
        thread.name = "child-process-output"
        thread.start()
    }

    /// Waits for the end of the stream, which follows the child's exit unless
    /// a process it left behind holds it: then what came within `timeout` is all there is.
    func waitForEnd(timeout: Duration = .seconds(5)) async {
        let deadline = ContinuousClock.now + timeout
        while !reachedEnd.load(ordering: .acquiring), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    func waitForEndSynchronously() {
        if ended.wait(timeout: .now() + 5) == .success { ended.signal() }
    }

    var data: Data { received.withLock { $0 } }
    var text: String { String(decoding: data, as: UTF8.self) }
}

/// A long-running helper (a window manager) started detached through the
/// shell, with its output discarded and every other inherited descriptor
/// closed, so it never holds a stream a test's `ChildProcess` waits to end.
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
