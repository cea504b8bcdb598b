import Foundation
import TestSupport
import Testing

extension PlaybackEngine {
    /// Issue #9's leak check: 200 item changes through one PlayerController,
    /// in a process of its own (`playback-leak-probe`) under GStreamer's
    /// leaks tracer, must leave exactly what the first few left. The stress
    /// test counts pipelines and bus watches in this process; this one counts
    /// every GStreamer object and mini object by type, and the Swift side's
    /// object wrappers and signal closures, where nothing else runs.
    @Suite("Playback leaks")
    struct PlaybackLeakTests {
        private struct Census: Decodable, Equatable {
            var gstreamer: [String: Int]
            var pipelines: Int
            var busWatches: Int
            var probes: Int
            var observerTasks: Int
            var signalClosures: Int
            var objectWrappers: Int

            /// GStreamer 1.22's `oggdemux`, stopped while it scans a local Ogg
            /// file for its end, drops the chain of pads it built there: one
            /// `GstOggPad` with its caps, two header buffers and their memory,
            /// and its tags, each time (a bare `filesrc ! oggdemux` in C leaks
            /// the same set; see Playback leaks in docs/RELIABILITY.md). The player's
            /// pipeline stops at that read when a local Opus item is replaced
            /// in that window, which this test does on purpose, and the set
            /// grew in 1 of 3 full runs on 2 December. That set, whole, once
            /// per pad, is not ours;
            /// anything else, or any part of it alone, still counts.
            static let oggScanChain = ["GstOggPad": 1, "GstCaps": 1, "GstBuffer": 2, "GstMemory": 2, "GstTagList": 1]

            /// What `later` has more of than this census, e.g. "GstVolume +12".
            func growth(to later: Census) -> [String] {
                var grown: [String] = []
                var changes: [String: Int] = [:]
                for type in Set(gstreamer.keys).union(later.gstreamer.keys) {
                    changes[type] = later.gstreamer[type, default: 0] - gstreamer[type, default: 0]
                }
                let droppedChains = changes["GstOggPad", default: 0]
                if droppedChains > 0, Self.oggScanChain.allSatisfy({ changes[$0.key, default: 0] >= $0.value * droppedChains }) {
                    for (type, count) in Self.oggScanChain { changes[type, default: 0] -= count * droppedChains }
                }
                for (type, change) in changes.sorted(by: { $0.key < $1.key }) where change != 0 {
                    grown.append("\(type) \(change > 0 ? "+" : "")\(change)")
                }
                let swiftSide: [(String, Int, Int)] = [
                    ("pipelines", pipelines, later.pipelines), ("bus watches", busWatches, later.busWatches),
                    ("probes", probes, later.probes), ("observer tasks", observerTasks, later.observerTasks),
                    ("signal closures", signalClosures, later.signalClosures),
                    ("object wrappers", objectWrappers, later.objectWrappers),
                ]
                for (name, before, after) in swiftSide where before != after {
                    grown.append("\(name) \(after - before > 0 ? "+" : "")\(after - before)")
                }
                return grown
            }
        }

        private struct Report: Decodable {
            var afterWarmUp: Census
            var afterChanges: Census
            var outcomes: [String: [String: Int]]
        }

        @Test("the census sets aside oggdemux's dropped scan chain, whole and once per pad, and nothing else")
        func scanChainAllowance() throws {
            func census(_ counts: [String: Int]) throws -> Census {
                let object: [String: Any] = ["gstreamer": counts, "pipelines": 1, "busWatches": 1, "probes": 0,
                                             "observerTasks": 0, "signalClosures": 3, "objectWrappers": 4]
                return try JSONDecoder().decode(Census.self, from: JSONSerialization.data(withJSONObject: object))
            }
            let before = try census(["GstCaps": 49, "GstPlayBin": 1])
            let twoChains = try census(["GstOggPad": 2, "GstCaps": 51, "GstBuffer": 4, "GstMemory": 4, "GstTagList": 2,
                                        "GstPlayBin": 1])
            #expect(before.growth(to: twoChains).isEmpty)
            let chainAndMore = try census(["GstOggPad": 1, "GstCaps": 50, "GstBuffer": 2, "GstMemory": 2, "GstTagList": 1,
                                           "GstVolume": 1, "GstPlayBin": 1])
            #expect(before.growth(to: chainAndMore) == ["GstVolume +1"])
            let partOfAChain = try census(["GstOggPad": 1, "GstBuffer": 2, "GstCaps": 49, "GstPlayBin": 1])
            #expect(before.growth(to: partOfAChain) == ["GstBuffer +2", "GstOggPad +1"])
            let buffersAlone = try census(["GstBuffer": 2, "GstCaps": 50, "GstPlayBin": 1])
            #expect(before.growth(to: buffersAlone) == ["GstBuffer +2", "GstCaps +1"])
        }

        /// How each of `itemChanges`' sources may end, in its order. The
        /// truncated MP4 may also time out: decodebin can drop qtdemux's
        /// error while it plugs, and the probe asked for a second opinion can
        /// hit the same race (seen under load), so the load timeout ends it.
        private static let expectedEnds: [Set<String>] = [
            ["playing"], ["playing"], ["failed: corrupt-media", "failed: timeout"], ["playing"], ["failed: http-404"],
            ["failed: connection-lost"], ["failed: offline"],
        ]

        @Test("200 item changes (playing, failing, cancelled) leave no GStreamer object, closure or task behind")
        func itemChanges() async throws {
            let media = MediaFixtures.shared
            let server = try TestHTTPServer()
            defer { server.stop() }
            let mp3 = try await media.data(.mp3)
            server.route("/episode.mp3", .serve(mp3, contentType: "audio/mpeg"))
            server.route("/gone.mp3", .status(404))
            server.route("/cut.mp3", .truncated(mp3, contentType: "audio/mpeg", fraction: 0.3))
            let refusing = try RefusingPort()
            // Held, not just read from: the port refuses only while this lives.
            defer { withExtendedLifetime(refusing) {} }
            // Seven sources and every fourth load replaced while it loads: over
            // the rounds, each source is played through, and cancelled too.
            let sources = [
                try await media.url(.opus).absoluteString,
                try await media.url(.wav).absoluteString,
                try await media.url(.truncatedMP4).absoluteString,
                server.url("/episode.mp3"),
                server.url("/gone.mp3"),
                server.url("/cut.mp3"),
                refusing.url("/refused.mp3"),
            ]
            let warmUp = 14, changes = 200

            let result = try await ChildProcess.run(BuiltProducts.executable("playback-leak-probe"),
                                                    arguments: [String(warmUp), String(changes)] + sources,
                                                    environment: ["GST_TRACERS": "leaks"], timeout: .seconds(300))

            try #require(result.status == 0 && !result.timedOut, "the probe failed: \(result.standardError.suffix(2000))")
            let report = try JSONDecoder().decode(Report.self, from: Data(result.standardOutput.utf8))
            // Each source ends only as it can, and each does so at least once
            // (played or failed, and replaced while loading): an error of one
            // item handled as the next one's (one playbin serves them all)
            // shows as a healthy source failing, or one failure as another.
            for (index, source) in sources.enumerated() {
                let ends = report.outcomes[source] ?? [:]
                let expected = Self.expectedEnds[index]
                #expect(Set(ends.keys).isSubset(of: expected.union(["replaced while loading"])), "\(source): \(ends)")
                #expect(ends.keys.contains { expected.contains($0) } && ends["replaced while loading"] != nil,
                        "\(source): \(ends)")
            }
            let grown = report.afterWarmUp.growth(to: report.afterChanges)
            #expect(grown.isEmpty, "after \(changes) item changes: \(grown.joined(separator: ", "))")
            // The census saw the pipeline, so a leak would have shown.
            #expect(report.afterChanges.gstreamer["GstPlayBin"] == 1 && report.afterChanges.pipelines == 1)
        }
    }
}
