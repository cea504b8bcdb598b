import Foundation

/// CPU time and context switches of a running process, read from /proc.
/// Context switches count every time any of its threads went to sleep or was
/// preempted, which is how often the process woke up.
public struct ProcessUsage: Sendable {
    public let cpuSeconds: Double
    /// Context switches so far, per thread ID.
    public let threadContextSwitches: [Int: Int]

    public init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return nil }
        // Fields after the command name start at field 3 (state); utime and stime are fields 14 and 15.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = (user + system) / ticksPerSecond

        var switches: [Int: Int] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let id = Int(task),
                  let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches[id, default: 0] += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        threadContextSwitches = switches
    }

    /// How many times the process's threads switched since `earlier`: threads
    /// that exited in between are not counted against it, new ones count whole.
    public func contextSwitches(since earlier: ProcessUsage) -> Int {
        threadContextSwitches.reduce(0) { total, thread in
            total + thread.value - (earlier.threadContextSwitches[thread.key] ?? 0)
        }
    }
}
