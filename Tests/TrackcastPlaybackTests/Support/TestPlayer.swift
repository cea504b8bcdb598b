import Foundation
import TestSupport
import TrackcastCore
import TrackcastPlayback

/// A player for tests: sound and pictures go to synchronised fakesinks (so
/// time passes as it would on a sound card), the GLib pump runs, and every
/// published state is recorded.
@MainActor
struct TestPlayer {
    let controller: PlayerController
    let recorder: StateRecorder

    init(_ configure: (inout PlayerConfiguration) -> Void = { _ in }) async throws {
        GLibPump.start()
        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink sync=true"
        configuration.videoSink = "fakesink sync=true"
        configuration.loadTimeout = .seconds(15)
        configuration.networkTimeout = .seconds(5)
        configure(&configuration)
        controller = try PlayerController(configuration: configuration)
        recorder = await StateRecorder(controller.store)
    }

    /// Loads `uri` and waits until it plays; returns the load's ID.
    func play(_ uri: String, startingAt start: Duration? = nil) async throws -> PlaybackItemID {
        let id = controller.load(PlaybackItem(uri: uri, kind: .audio), startingAt: start)
        guard await recorder.waitFor(.playing, of: id) else {
            throw TestFailure("\(uri) never played; states: \(recorder.states)")
        }
        return id
    }

    /// The first value `stream` yields, or nil if none comes within `timeout`.
    func first<Value: Sendable>(of stream: AsyncStream<Value>, within timeout: Duration = .seconds(10)) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask { await stream.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Waits until `condition` holds, polling every 20 ms, up to `timeout`.
    func waitUntil(_ timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
