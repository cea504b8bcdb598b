import Foundation

/// CPU time and context switches of a running process, read from /proc.
/// Context switches count every time any of its threads went to sleep or was
/// preempted, which is how often the process woke up.
public struct ProcessUsage: Sendable {
    public let cpuSeconds: Double
    public let contextSwitches: Int

    public init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return nil }
        // Fields after the command name start at field 3 (state); utime and stime are fields 14 and 15.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = (user + system) / ticksPerSecond

        var switches = 0
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        contextSwitches = switches
    }
}
