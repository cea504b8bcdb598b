import Foundation
import TestSupport
import Testing

@Suite("Main actor on the GLib main loop")
struct MainQueueBridgeTests {
    /// The probe reports `key=value` pairs on one line.
    private func runProbe() async throws -> [String: String] {
        let result = try await ChildProcess.run(BuiltProducts.executable("main-loop-probe"), timeout: .seconds(20))
        #expect(result.status == 0, "probe failed: \(result.standardOutput) \(result.standardError)")
        var report: [String: String] = [:]
        for pair in result.standardOutput.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { report[String(parts[0])] = String(parts[1]) }
        }
        return report
    }

    @Test("tasks, sleeps and actor hops resume on the main thread while g_main_loop_run drives")
    func mainActorRunsOnMainThread() async throws {
        let report = try await runProbe()
        #expect(report["timedOut"] == nil, "the main actor never ran: the bridge did not drain the queue")
        #expect(report["taskOnMain"] == "true")
        #expect(report["sleepOnMain"] == "true")
        #expect(report["detachedOnMain"] == "false", "detached work belongs on the global executor")
        #expect(report["hopBackOnMain"] == "true")
    }

    @Test("an idle loop does not spin")
    func idleLoopSleeps() async throws {
        let report = try await runProbe()
        let wakeups = try #require(report["idleWakeups"].flatMap(Int.init))
        let cpu = try #require(report["idleCPUSeconds"].flatMap(Double.init))
        // With nothing enqueued the bridge should not wake at all; an unread
        // eventfd makes it wake hundreds of thousands of times a second.
        #expect(wakeups <= 2)
        #expect(cpu < 0.1, "idle second cost \(cpu) s of CPU")
    }
}
