import Foundation
import TestSupport
import Testing

/// Dragging the seek bar with the pointer, as a person does.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("a drag along the seek bar makes fast seeks, one exact seek at the release and one library write")
    func dragScrubs() async throws {
        let library = RunningApp.temporaryLibrary()
        let media = try await Self.minuteOfAudio()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitFor(timeout: .seconds(30)) { !$0.positions().isEmpty },
                         "the file did not play: \(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"), "no pause: \(app.standardOutput)")
            try #require(await app.waitForLine("resume: saving"), "the pause saved nothing: \(app.standardOutput)")
            let placed = await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("scrubber: at ") }
            try #require(placed, "the seek bar never said where it is: \(app.standardOutput)")
            let bounds = try #require(RunningApp.loggedNumbers(after: "scrubber: at ", in: app.standardOutput).last)
            try #require(bounds.count == 4 && bounds[2] > 100, "seek bar at \(bounds)")
            let (x, y, width, height) = (bounds[0], bounds[1], bounds[2], bounds[3])
            let row = String(Int(y + height / 2))
            func at(_ fraction: Double) -> String { String(Int(x + width * fraction)) }

            let found = try await ChildProcess.run(Self.xdotool, arguments: ["search", "--onlyvisible", "--name", "^Trackcast$"])
            let window = try #require(found.standardOutput.split(separator: "\n").first.map(String.init))
            let mark = app.standardOutput.endIndex
            // Press a tenth of the way along, drag in twelve steps to seven
            // tenths, let go there.
            var steps = ["mousemove", "--window", window, at(0.1), row, "mousedown", "1"]
            for step in 1...12 {
                steps += ["sleep", "0.05", "mousemove", "--window", window, at(0.1 + 0.05 * Double(step)), row]
            }
            steps += ["sleep", "0.1", "mouseup", "1"]
            let dragged = try await ChildProcess.run(Self.xdotool, arguments: steps)
            try #require(dragged.status == 0, "xdotool: \(dragged.standardError)")
            let released = await app.waitForLine("(exact)", after: mark)
            try #require(released, "no exact seek after the drag: \(app.standardOutput[mark...])")
            try #require(await app.waitForLine("resume: saving", after: mark), "\(app.standardOutput[mark...])")
            let log = app.standardOutput[mark...]
            let lines = log.split(separator: "\n")
            let fast = lines.filter { $0.contains("(fast)") }.count
            let exact = lines.filter { $0.contains("(exact)") }
            let saves = lines.filter { $0.contains("resume: saving") }.count
            print("drag: \(fast) fast seeks, \(exact.count) exact, \(saves) library writes")
            #expect(fast >= 1, "the drag made no fast seek: \(log)")
            #expect(exact.count == 1, "exact seeks: \(exact)")
            #expect(saves == 1, "library writes during the drag: \(saves)\n\(log)")
            // Let go at seven tenths of a minute.
            let landed = try #require(RunningApp.loggedValues("seek to ", in: exact.joined(separator: "\n")).first)
            #expect(abs(landed - 42) < 3, "the release sought to \(landed) s")
            // The exact seek is the last one: nothing fast after the release.
            let lastFast = lines.lastIndex { $0.contains("(fast)") } ?? -1
            let exactIndex = lines.firstIndex { $0.contains("(exact)") } ?? -1
            #expect(lastFast < exactIndex, "a fast seek came after the release")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    private static let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
}

extension RunningApp {
    /// The space-separated numbers after each `prefix` in `log`, one list a line.
    static func loggedNumbers(after prefix: String, in log: some StringProtocol) -> [[Double]] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: prefix) else { return nil }
            return line[range.upperBound...].split(separator: " ").compactMap { Double($0) }
        }
    }
}
