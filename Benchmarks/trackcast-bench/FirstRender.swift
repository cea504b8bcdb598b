import Bindings
import Foundation
import Synchronization

/// A synchronised fakesink that notes when it renders its first buffer.
@MainActor
final class FirstRender {
    let sink: Element
    private let renderedAt = FirstInstant()

    init() throws {
        sink = try Element.make("fakesink")
        try sink.setProperty("sync", true)
        try sink.setProperty("signal-handoffs", true)
        sink.onHandoffFromAnyThread { [renderedAt] in renderedAt.note() }
    }

    /// Forgets the last render; returns now, to time the next one from.
    func reset() -> ContinuousClock.Instant {
        renderedAt.clear()
        return .now
    }

    /// Waits (letting the main actor run) for the first render since `start`.
    func milliseconds(since start: ContinuousClock.Instant, playing uri: String) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let rendered = renderedAt.value { return (rendered - start) / .milliseconds(1) }
            try await Task.sleep(for: .microseconds(250))
        }
        throw BenchFailure("nothing of \(uri) was played within 20 s")
    }
}

/// The first instant noted since the last `clear`, from any thread.
final class FirstInstant: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    func note() { instant.withLock { if $0 == nil { $0 = .now } } }
    func clear() { instant.withLock { $0 = nil } }
    var value: ContinuousClock.Instant? { instant.withLock { $0 } }
}
