import Foundation
import Synchronization
import TestSupport
import Testing
import TrackcastCore
import TrackcastPlayback

/// Consumes an item's position ticks and notes when the stream ends.
private final class TickWatcher: Sendable {
    let id: PlaybackItemID
    private let ended = Mutex(false)

    init(id: PlaybackItemID, ticks: AsyncStream<PositionTick>) {
        self.id = id
        Task.detached { [self] in
            for await _ in ticks {}
            ended.withLock { $0 = true }
        }
    }

    var hasEnded: Bool { ended.withLock { $0 } }
}

extension PlaybackEngine {
    /// Random sequences of the things a user does, quickly, against sources
    /// that are fast, slow, failing and live. Set TRACKCAST_STRESS_SEED to
    /// replay a failure; the seed is in every failure message.
    @Suite("Random use under stress")
    @MainActor
    struct StressTests {
        private static let sequences = 1_000

        private enum Action: CaseIterable {
            case load, next, seek, pause, play, rate, stop
        }

        @Test("every published state belongs to the active item; nothing outlives its item")
        func randomSequences() async throws {
            let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_STRESS_SEED")
            var random = SplitMix64(seed: seed)
            let context = "seed \(seed) (TRACKCAST_STRESS_SEED=\(seed) to replay)"

            let sources = try await makeSources()
            let baseline = (pipelines: PlaybackDiagnostics.pipelines, watches: PlaybackDiagnostics.busWatches)
            try await run(sources: sources, random: &random, context: context)
            // The player is gone: so must be its pipeline, its bus watch, its probes and tasks.
            let released = await waitUntil {
                PlaybackDiagnostics.pipelines == baseline.pipelines && PlaybackDiagnostics.busWatches == baseline.watches
                    && PlaybackDiagnostics.observerTasks == 0 && PlaybackDiagnostics.probes == 0
            }
            #expect(released, """
                left behind: \(PlaybackDiagnostics.pipelines - baseline.pipelines) pipelines, \
                \(PlaybackDiagnostics.busWatches - baseline.watches) bus watches, \
                \(PlaybackDiagnostics.observerTasks) observer tasks, \(PlaybackDiagnostics.probes) probes; \(context)
                """)
        }

        private func run(sources: [String], random: inout SplitMix64, context: String) async throws {
            let player = try await TestPlayer {
                $0.loadTimeout = .seconds(2)
                $0.networkTimeout = .seconds(1)
                $0.forwardBuffer = .seconds(1)
            }
            let controller = player.controller
            let recorder = player.recorder
            #expect(PlaybackDiagnostics.pipelines >= 1 && PlaybackDiagnostics.busWatches >= 1, "\(context)")

            var loads: [PlaybackItemID] = []
            var sourceOf: [PlaybackItemID: String] = [:]
            var tickWatchers: [TickWatcher] = []
            let staleBefore = (messages: PlaybackDiagnostics.staleMessagesDropped,
                               results: PlaybackDiagnostics.staleTaskResultsDropped)
            for sequence in 0..<Self.sequences {
                for _ in 0..<Int.random(in: 2...5, using: &random) {
                    switch Action.allCases.randomElement(using: &random)! {
                    case .load, .next:
                        let uri = sources.randomElement(using: &random)!
                        let start: Duration? = Bool.random(using: &random) ? .milliseconds(Int64.random(in: 0...3000, using: &random)) : nil
                        let id = controller.load(PlaybackItem(uri: uri, kind: .audio), startingAt: start)
                        loads.append(id)
                        sourceOf[id] = uri
                        tickWatchers.append(TickWatcher(id: id, ticks: controller.positionTicks(of: id)))
                    case .seek:
                        controller.seek(to: .milliseconds(Int64.random(in: 0...6000, using: &random)),
                                        mode: Bool.random(using: &random) ? .exact : .fast)
                    case .pause: controller.pause()
                    case .play: controller.play()
                    case .rate: controller.setRate(PlaybackRate(Double.random(in: 0.5...3, using: &random)))
                    case .stop: controller.stop()
                    }
                    // play() after stop() loads the item again, under a new ID.
                    if let current = controller.currentItemID, current != loads.last {
                        sourceOf[current] = loads.last.flatMap { sourceOf[$0] }
                        loads.append(current)
                    }
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...20, using: &random)))
                }
                // Now and then, let the current item get somewhere: playing, ended, failed.
                // An item still loading well past the load timeout is stuck.
                if sequence % 25 == 24, let id = controller.currentItemID {
                    _ = await recorder.waitFor(.seconds(4)) { state in
                        state.itemID == id && [.playing, .ended, .idle].contains(state.phase) || state.phase.isFailure
                    }
                    let left = await recorder.waitFor(.seconds(6)) { $0.itemID == id && $0.phase != .loading }
                    #expect(left != nil, "\(id) of \(sourceOf[id] ?? "?") still loading after 10 s; \(context)")
                }
                // The tick streams of every item but the current one have ended.
                if sequence % 50 == 49 {
                    let current = controller.currentItemID
                    let ended = await waitUntil { tickWatchers.allSatisfy { $0.id == current || $0.hasEnded } }
                    #expect(ended, "tick streams of replaced items still open after sequence \(sequence); \(context)")
                    tickWatchers.removeAll { $0.id != current }
                    #expect(PlaybackDiagnostics.observerTasks <= 2,
                            "\(PlaybackDiagnostics.observerTasks) observer tasks after sequence \(sequence); \(context)")
                }
            }

            await controller.stateUpdatesDelivered()
            let states = recorder.states
            // The store only ever moved forward: once an item began, nothing
            // of an earlier one was published.
            var newest: PlaybackItemID?
            for state in states {
                guard let id = state.itemID else { continue }
                if let active = newest {
                    #expect(id >= active, "state \(state) published after \(active) began; \(context)")
                }
                if state.phase == .loading { newest = id }
            }
            #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "a duplicate state was published; \(context)")
            #expect(states.last?.itemID == loads.last, "the store ended on \(String(describing: states.last)); \(context)")
            let strangers = Set(states.compactMap(\.itemID)).subtracting(loads)
            #expect(strangers.isEmpty, "states of items never loaded: \(strangers); \(context)")
            // Each item fails only as its own source can: an old item's
            // error handled under a new item's ID (one playbin serves them
            // all) shows as a healthy file failing, or a 500 as a 404.
            for state in states {
                guard case .failed(let error) = state.phase, let id = state.itemID, let source = sourceOf[id],
                      let expected = expectedFailures(of: source) else { continue }
                #expect(expected.contains(error.code), "\(id) of \(source) failed with \(error.code); \(context)")
            }
            let staleMessages = PlaybackDiagnostics.staleMessagesDropped - staleBefore.messages
            let staleResults = PlaybackDiagnostics.staleTaskResultsDropped - staleBefore.results
            print("stress: \(staleMessages) bus messages and \(staleResults) task results of replaced items dropped")
            #expect(staleMessages > 0, "no bus message of a replaced item was dropped: the stale path never ran; \(context)")

            controller.stop()
            #expect(await waitUntil { tickWatchers.allSatisfy(\.hasEnded) }, "tick streams open after stop; \(context)")
        }

        /// The failures `source` can end in, when they are known: timeouts
        /// anywhere (the test's limits are short and CI's machine busy),
        /// else only its own.
        private func expectedFailures(of source: String) -> Set<String>? {
            if source.hasSuffix("/missing.mp3") { return ["http-404", "timeout"] }
            if source.hasSuffix("/broken.mp3") { return ["http-500", "timeout"] }
            if source.hasSuffix("tone.opus") || source.hasSuffix("tone.wav") || source.hasSuffix("/fast.mp3") { return ["timeout"] }
            return nil
        }

        /// Fast, slow, failing and live sources, local and on loopback.
        private func makeSources() async throws -> [String] {
            let server = try TestHTTPServer()
            let media = MediaFixtures.shared
            server.route("/fast.mp3", .serve(try await media.data(.mp3), contentType: "audio/mpeg"))
            server.route("/slow.mp3", .throttled(try await media.data(.longMP3), contentType: "audio/mpeg", bytesPerSecond: 40_000))
            server.route("/delayed.opus", .delay(.milliseconds(300), then: .init(.serve(try await media.data(.opus), contentType: "audio/ogg"))))
            server.route("/missing.mp3", .status(404))
            server.route("/broken.mp3", .delay(.milliseconds(400), then: .init(.status(500))))
            server.route("/reset.mp3", .reset)
            for (name, data) in try await media.hlsFiles() {
                let body = name.hasSuffix(".m3u8")
                    ? Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "#EXT-X-ENDLIST", with: "").utf8)
                    : data
                server.route("/live/\(name)", .serve(body, contentType: name.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t"))
            }
            let closed = try TestHTTPServer()
            closed.stop()
            retainedServers.append(server)
            return [
                try await media.url(.opus).absoluteString,
                try await media.url(.wav).absoluteString,
                try await media.url(.truncatedMP4).absoluteString,
                server.url("/fast.mp3"), server.url("/slow.mp3"), server.url("/delayed.opus"),
                server.url("/missing.mp3"), server.url("/broken.mp3"), server.url("/reset.mp3"),
                server.url("/live/playlist.m3u8"),
                "http://127.0.0.1:\(closed.port)/refused.mp3",
            ]
        }

        private var retainedServers: [TestHTTPServer] { get { Self.servers } nonmutating set { Self.servers = newValue } }
        private static var servers: [TestHTTPServer] = []

        private func waitUntil(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<300 where !condition() { try? await Task.sleep(for: .milliseconds(20)) }
            return condition()
        }
    }
}
