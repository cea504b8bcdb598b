import Bindings
import Foundation
import Testing
import TestSupport

@Suite("Bus watch", .needs("ffmpeg"))
@MainActor
struct BusWatchTests {
    /// A preroll posts a state change for every element inside playbin; the
    /// watch is to wake the main loop only for what was asked.
    @Test("only the kinds asked for, and only the pipeline's own state changes, reach the main loop")
    func filtersOnThePostingThread() async throws {
        GLibPump.start()
        let file = FileManager.default.temporaryDirectory.appending(path: "bus-watch-\(UUID().uuidString).opus")
        defer { try? FileManager.default.removeItem(at: file) }
        try await ChapteredMedia.write(.opus, seconds: 1, chapters: [], to: file)

        let playbin = try Playbin(.playbin)
        playbin.setFlags("audio")
        playbin.setAudioSink(try Element.make("fakesink"))
        playbin.uri = file.absoluteString
        var delivered: [(kind: Message.Kind, fromPipeline: Bool)] = []
        let watch = BusWatch(bus: try #require(playbin.bus), kinds: [.stateChanged, .asyncDone],
                             stateChangesOf: playbin) { message in
            delivered.append((message.kind, message.isFrom(playbin)))
        }
        defer {
            watch.remove()
            _ = playbin.setState(.null)
        }
        _ = playbin.setState(.paused)

        let deadline = ContinuousClock.now + .seconds(10)
        while !delivered.contains(where: { $0.kind == .asyncDone }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(delivered.contains { $0.kind == .asyncDone }, "the preroll's ASYNC_DONE never came: \(delivered)")
        #expect(delivered.contains { $0.kind == .stateChanged }, "playbin's own state changes never came: \(delivered)")
        let unasked = delivered.filter { !($0.kind == .asyncDone || ($0.kind == .stateChanged && $0.fromPipeline)) }
        #expect(unasked.isEmpty, "delivered besides what was asked: \(unasked)")
    }
}
