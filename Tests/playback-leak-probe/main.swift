import Bindings
import Foundation
import TrackcastCore
import TrackcastPlayback

// A process of its own for the playback leak check: it changes items through
// one PlayerController, then counts what is alive. Run it with
// GST_TRACERS=leaks so that GStreamer's own objects can be counted too.
//
//   playback-leak-probe WARM-UP CHANGES URI...
//
// The URIs are loaded in turn, WARM-UP changes and then CHANGES more; every
// fifth load is replaced while it is still loading (a cancelled load), the
// others are waited for until they play or fail. After each round the item
// is stopped and the counts taken once they are steady. Prints one JSON
// object: the census after the warm-up, the one after the changes, and how
// the loads ended.

struct Census: Codable, Equatable {
    /// Live GStreamer objects and mini objects by type name (the leaks tracer).
    var gstreamer: [String: Int]
    var pipelines: Int
    var busWatches: Int
    var probes: Int
    var observerTasks: Int
    var signalClosures: Int
    var objectWrappers: Int

    @MainActor
    static func take(_ tracer: GStreamerLeaksTracer) -> Census {
        Census(gstreamer: tracer.liveObjectCounts(), pipelines: PlaybackDiagnostics.pipelines,
               busWatches: PlaybackDiagnostics.busWatches, probes: PlaybackDiagnostics.probes,
               observerTasks: PlaybackDiagnostics.observerTasks, signalClosures: SignalClosureBox.liveCount,
               objectWrappers: ObjectRef.liveWrapperCount)
    }
}

struct Report: Codable {
    var afterWarmUp: Census
    var afterChanges: Census
    /// How each source's loads ended, by source: "playing", "failed: <code>",
    /// "replaced while loading", "unsettled", each with its count.
    var outcomes: [String: [String: Int]]
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let warmUp = Int(arguments[0]), let changes = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: playback-leak-probe WARM-UP CHANGES URI...\n".utf8))
    exit(2)
}
let uris = Array(arguments.dropFirst(2))
guard let tracer = GStreamerLeaksTracer.active() else {
    FileHandle.standardError.write(Data("GStreamer's leaks tracer is not running: set GST_TRACERS=leaks\n".utf8))
    exit(2)
}

MainQueueBridge.install()
let loop = MainLoop()
nonisolated(unsafe) var exitStatus: Int32 = 1  // Written on the main actor before loop.quit(), read after loop.run() returns, on the same thread.

@MainActor
final class Driver {
    let controller: PlayerController
    let uris: [String]
    let tracer: GStreamerLeaksTracer
    var outcomes: [String: [String: Int]] = [:]
    var loads = 0

    init(uris: [String], tracer: GStreamerLeaksTracer) throws {
        self.uris = uris
        self.tracer = tracer
        var configuration = PlayerConfiguration()
        // Synchronised fakesinks: time passes as on a sound card, nothing is heard.
        configuration.audioSink = "fakesink sync=true"
        configuration.videoSink = "fakesink sync=true"
        configuration.loadTimeout = .seconds(5)
        configuration.networkTimeout = .seconds(2)
        controller = try PlayerController(configuration: configuration)
    }

    /// Loads `count` items in turn, the way a person skips through episodes.
    func changeItems(_ count: Int) async {
        for _ in 0..<count {
            let uri = uris[loads % uris.count]
            let replacedWhileLoading = loads % 4 == 3
            loads += 1
            let id = controller.load(PlaybackItem(uri: uri, kind: .audio))
            // A subscriber, as the UI has one: its task must end with the item.
            let ticks = controller.positionTicks(of: id)
            Task.detached { for await _ in ticks {} }
            if replacedWhileLoading {
                outcomes[uri, default: [:]]["replaced while loading", default: 0] += 1
                // Replaced at once or up to 0.3 s later: a failing source's
                // failure may then still be on its way (its classification
                // asks the server), and must not land on the next item.
                try? await Task.sleep(for: .milliseconds(loads * 37 % 300))
                continue
            }
            outcomes[uri, default: [:]][await settle(id), default: 0] += 1
        }
        controller.stop()
    }

    /// Waits for item `id` to play or fail (at most 20 s, then "unsettled").
    func settle(_ id: PlaybackItemID) async -> String {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            await controller.stateUpdatesDelivered()
            let state = await controller.store.state
            if state.itemID == id {
                switch state.phase {
                case .playing, .ended: return "playing"
                case .failed(let error): return "failed: \(error.code)"
                default: break
                }
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return "unsettled"
    }

    /// The census once nothing changes any more: the stopped item's tasks
    /// ended, its probes finished, GStreamer's threads gone quiet (two
    /// equal counts 200 ms apart).
    func steadyCensus() async -> Census {
        var previous = await censusOnceQuiet()
        for _ in 0..<100 {
            try? await Task.sleep(for: .milliseconds(200))
            let current = await censusOnceQuiet()
            if current == previous { return current }
            previous = current
        }
        return previous
    }

    func censusOnceQuiet() async -> Census {
        await probesAndTasksEnded()
        return Census.take(tracer)
    }

    /// Waits (at most 20 s) until no probe or observer task is left. Only
    /// then may GStreamer's objects be counted: the tracer lists them
    /// without a reference, and one that a probe's pipeline is finalising on
    /// another thread meanwhile would be referenced from the dead (a crash,
    /// seen when a probe of a local file was left to finish).
    func probesAndTasksEnded() async {
        let deadline = ContinuousClock.now + .seconds(20)
        while PlaybackDiagnostics.probes > 0 || PlaybackDiagnostics.observerTasks > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

Task { @MainActor in
    do {
        let driver = try Driver(uris: uris, tracer: tracer)
        await driver.changeItems(warmUp)
        let afterWarmUp = await driver.steadyCensus()
        await driver.changeItems(changes)
        let afterChanges = await driver.steadyCensus()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let report = Report(afterWarmUp: afterWarmUp, afterChanges: afterChanges, outcomes: driver.outcomes)
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
        exitStatus = 0
    } catch {
        FileHandle.standardError.write(Data("playback-leak-probe: \(error)\n".utf8))
    }
    loop.quit()
}

loop.run()
exit(exitStatus)
