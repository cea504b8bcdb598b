import Foundation
import Testing
import TrackcastCore
import TrackcastPlayback

/// Arrival times of whatever a stream yields, recorded off the main actor.
private actor Arrivals<Element: Sendable> {
    private(set) var items: [(ContinuousClock.Instant, Element)] = []
    func add(_ item: Element) { items.append((ContinuousClock.now, item)) }
    func since(_ instant: ContinuousClock.Instant) -> [Element] { items.filter { $0.0 >= instant }.map(\.1) }
    var all: [Element] { items.map(\.1) }
}

extension PlaybackEngine {
    @Suite("Observing playback")
    @MainActor
    struct ObserverTests {
        private func record<Element: Sendable>(_ stream: AsyncStream<Element>) -> (Arrivals<Element>, Task<Void, Never>) {
            let arrivals = Arrivals<Element>()
            let task = Task.detached {
                for await item in stream { await arrivals.add(item) }
            }
            return (arrivals, task)
        }

        @Test("position ticks come about twice a second while playing and not at all while paused")
        func ticks() async throws {
            let player = try await TestPlayer()
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)
            let (ticks, task) = record(player.controller.positionTicks(of: id))
            defer { task.cancel() }
            let start = ContinuousClock.now
            try await Task.sleep(for: .seconds(2))
            let playing = await ticks.since(start)
            #expect((3...6).contains(playing.count), "\(playing.count) ticks in 2 s of playing")
            #expect(playing.allSatisfy { $0.itemID == id })
            #expect(zip(playing, playing.dropFirst()).allSatisfy { $0.position < $1.position })

            player.controller.pause()
            // A tick already on its way may still land; after that, silence.
            try await Task.sleep(for: .milliseconds(100))
            let paused = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(1500))
            #expect(await ticks.since(paused).isEmpty, "ticks while paused")

            player.controller.play()
            let resumed = ContinuousClock.now
            try await Task.sleep(for: .seconds(1))
            #expect(await !ticks.since(resumed).isEmpty, "no ticks after resuming")
        }

        /// Waits up to `timeout` for `arrivals` to hold `count` items.
        private func wait<Element: Sendable>(for count: Int, in arrivals: Arrivals<Element>,
                                             timeout: Duration = .seconds(10)) async -> [Element] {
            let deadline = ContinuousClock.now + timeout
            while await arrivals.all.count < count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return await arrivals.all
        }

        @Test("boundary observers fire as playback crosses each time, on time, and not when a seek jumps over")
        func boundaries() async throws {
            let player = try await TestPlayer()
            let id = try await player.play(try await MediaFixtures.shared.url(.longOpus).absoluteString)
            let (crossings, task) = record(player.controller.boundaryCrossings([.milliseconds(1500), .seconds(3), .seconds(20)],
                                                                               of: id))
            defer { task.cancel() }
            let first = await wait(for: 1, in: crossings)
            let atFirst = try #require(player.controller.position)
            #expect(first == [.milliseconds(1500)])
            #expect(atFirst >= .milliseconds(1450) && atFirst < .milliseconds(1800), "reported at \(atFirst)")
            #expect(await wait(for: 2, in: crossings) == [.milliseconds(1500), .seconds(3)])
            // Jump past 20 s: that boundary is skipped, not crossed.
            player.controller.seek(to: .seconds(21))
            try await Task.sleep(for: .seconds(1))
            #expect(await crossings.all == [.milliseconds(1500), .seconds(3)])
        }

        @Test("the end of an item is reported once, tagged with its ID")
        func end() async throws {
            let player = try await TestPlayer()
            let id = try await player.play(try await MediaFixtures.shared.url(.wav).absoluteString)
            let (ends, task) = record(player.controller.endOfItem(id))
            player.controller.seek(to: .milliseconds(3500))
            #expect(await wait(for: 1, in: ends) == [id])
            // The stream finishes after its one event.
            let finished = await player.waitUntil { task.isCancelled == false && player.recorder.states(of: id).last == .ended }
            #expect(finished)
            await task.value
            #expect(await ends.all == [id])
        }

        @Test("an item's one-time events (ready, ended, failed) all reach a subscriber that reads late; the latest-value state stream keeps only the newest")
        func eventsAreNeverDropped() async throws {
            let player = try await TestPlayer()
            var states = await player.controller.store.updates().makeAsyncIterator()
            _ = await states.next()
            let id = player.controller.load(PlaybackItem(uri: try await MediaFixtures.shared.url(.wav).absoluteString, kind: .audio))
            let events = player.controller.events(of: id)
            #expect(await player.recorder.waitFor(.playing, of: id))
            player.controller.seek(to: .milliseconds(3500))
            #expect(await player.recorder.waitFor(.ended, of: id))
            // Read only now: every event is there, in order, and the stream
            // finishes when the item is replaced.
            let failing = player.controller.load(PlaybackItem(uri: try await MediaFixtures.shared.url(.unknownCodec).absoluteString,
                                                              kind: .audio))
            // Asked for at once: events come to those already listening, and this one fails fast.
            let failures = player.controller.events(of: failing)
            var seen: [ItemEvent] = []
            for await event in events { seen.append(event) }
            #expect(seen == [.ready(isLive: false), .ended], "\(seen)")
            let newest = await states.next()
            #expect(newest?.phase != .ready(isLive: false), "the state stream kept every state: \(String(describing: newest))")

            #expect(await player.recorder.failure(of: failing) != nil)
            player.controller.stop()
            var failed: [ItemEvent] = []
            for await event in failures { failed.append(event) }
            #expect(failed.count == 1 && failed.allSatisfy { if case .failed = $0 { true } else { false } }, "\(failed)")
        }

        @Test("loading the next item ends every observer of the previous one and its tasks")
        func observersEndWithTheirItem() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.longOpus).absoluteString
            let first = try await player.play(uri)
            let ticks = Task { for await _ in player.controller.positionTicks(of: first) {}; return true }
            let boundaries = Task { for await _ in player.controller.boundaryCrossings([.seconds(25)], of: first) {}; return true }
            let end = Task { for await _ in player.controller.endOfItem(first) {}; return true }
            #expect(PlaybackDiagnostics.observerTasks >= 1)
            let second = try await player.play(uri)
            let (ticksEnded, boundariesEnded, endEnded) = (await ticks.value, await boundaries.value, await end.value)
            #expect(ticksEnded && boundariesEnded && endEnded)
            // Streams asked for an item that is gone end at once.
            var stale = player.controller.positionTicks(of: first).makeAsyncIterator()
            #expect(await stale.next() == nil)
            player.controller.stop()
            #expect(await player.waitUntil { PlaybackDiagnostics.observerTasks == 0 },
                    "\(PlaybackDiagnostics.observerTasks) observer tasks outlived their items")
            #expect(player.recorder.states(of: second).last == .idle)
        }

        @Test("audio items never decode video; video items do")
        func audioOnly() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.video).absoluteString
            let audio = player.controller.load(PlaybackItem(uri: uri, kind: .audio))
            #expect(await player.recorder.waitFor(.playing, of: audio))
            #expect(player.controller.activeDecoders.contains("opusdec"))
            #expect(!player.controller.activeDecoders.contains("vp8dec"), "decoders: \(player.controller.activeDecoders)")
            let video = player.controller.load(PlaybackItem(uri: uri, kind: .video))
            #expect(await player.recorder.waitFor(.playing, of: video))
            #expect(player.controller.activeDecoders.contains("vp8dec"), "decoders: \(player.controller.activeDecoders)")
        }

        @Test("volume and mute stay across items")
        func volume() async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(.opus).absoluteString
            _ = try await player.play(uri)
            player.controller.volume = 0.25
            player.controller.isMuted = true
            _ = try await player.play(uri)
            #expect(abs(player.controller.volume - 0.25) < 0.001)
            #expect(player.controller.isMuted)
            player.controller.volume = 7
            #expect(player.controller.volume == 1)
        }
    }
}
