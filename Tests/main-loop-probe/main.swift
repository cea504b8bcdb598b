import Bindings
import CGLib
import Foundation

// Runs the GLib main loop from a synchronous main, as the app does, and
// reports on one line whether main-actor work ran on the main thread and how
// much the bridge woke and spent while nothing was happening.

MainQueueBridge.install()
let loop = MainLoop()
var report: [String: String] = [:]

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

@MainActor
func measureIdle() {
    let wakeupsBefore = MainQueueBridge.wakeups
    let cpuBefore = cpuSeconds()
    Timeout.once(after: 1000) {
        report["idleWakeups"] = String(MainQueueBridge.wakeups - wakeupsBefore)
        report["idleCPUSeconds"] = String(cpuSeconds() - cpuBefore)
        loop.quit()
    }
}

Task { @MainActor in
    report["taskOnMain"] = String(Thread.isMainThread)
    try await Task.sleep(for: .milliseconds(100))
    report["sleepOnMain"] = String(Thread.isMainThread)
    let backgroundThreadWasMain = await Task.detached { Thread.isMainThread }.value
    report["detachedOnMain"] = String(backgroundThreadWasMain)
    report["hopBackOnMain"] = String(Thread.isMainThread)
    measureIdle()
}

// If the bridge does not deliver the task, give up instead of hanging.
Timeout.once(after: 5000) {
    report["timedOut"] = "true"
    loop.quit()
}

loop.run()
let line = report.keys.sorted().map { "\($0)=\(report[$0]!)" }.joined(separator: " ")
print(line)
exit(report["timedOut"] == nil ? 0 : 1)
