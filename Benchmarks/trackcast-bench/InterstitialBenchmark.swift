import Bindings
import Foundation
import TestSupport
import TrackcastCore
import TrackcastLibrary
import TrackcastPlayback

/// The switches an HLS interstitial costs, as the app makes them: the
/// playlist read by `HLSInterstitialFetcher`, its schedule deciding
/// (`InterstitialSchedule`), the `PlayerController` loading the asset when
/// playback crosses the interstitial's start, and the item again at its
/// resume offset when the asset ends (`NowPlaying` does the same two loads).
/// Both are timed to the sink's first buffer, against a bare `playbin` doing
/// the same switch in the same run: a URI change to the asset, and one back
/// to the item with an ACCURATE seek to the same resume position.
/// The stream is `InterstitialStream` on loopback (1 s AAC segments, a 2 s asset).
/// No goal is named for it.
///
/// And what reading the playlist before the item plays costs a stream
/// without interstitials: `PlayerController.load(_:holdsHLS:)` with the
/// playlist read at the same time and the hold released when it is, as
/// `NowPlaying` loads an `.m3u8` address, to the first buffer; against the
/// same load not held, and a bare playbin, the three taking turns first.
@MainActor
struct InterstitialBenchmark {
    var runs = 7

    func run() async throws -> [BenchRow] {
        GStreamer.initialize()
        let server = try TestHTTPServer()
        defer { server.stop() }
        InterstitialStream.serve(try await HLSAudioSegments.make(), on: server)
        let primary = server.url(InterstitialStream.playlistPath)
        let playlist = try await HLSInterstitialFetcher(client: HTTPClient(userAgent: "Trackcast-bench"))
            .playlist(at: URL(string: primary)!)
        let schedule = InterstitialSchedule(playlist.interstitials)
        guard let first = schedule.interstitials.first, let asset = first.assetURI?.absoluteString else {
            throw BenchFailure("no interstitial read from \(primary)")
        }
        let resume = Duration.seconds(InterstitialSchedule.resumePosition(after: first, assetDuration: nil))

        let (controller, oursSink, bare, floorSink) = try Self.audioPlayers()

        var into: [Double] = [], back: [Double] = [], floorInto: [Double] = [], floorBack: [Double] = []
        // The first run warms caches and loads plug-ins; it is not counted.
        for run in 0...runs {
            // The item from a second before the interstitial, to its start.
            let id = controller.load(PlaybackItem(uri: primary, kind: .audio), startingAt: .seconds(first.start - 1))
            var crossings = controller.boundaryCrossings([.seconds(first.start)], of: id).makeAsyncIterator()
            guard let crossed = await crossings.next(isolation: MainActor.shared),
                  schedule.due(at: Double(crossed.components.seconds) + Double(crossed.components.attoseconds) / 1e18) == first else { throw BenchFailure("\(primary) never reached \(first.start) s") }
            var start = oursSink.reset()
            let assetID = controller.load(PlaybackItem(uri: asset, kind: .audio))
            let intoTime = try await oursSink.milliseconds(since: start, playing: asset)
            var events = controller.events(of: assetID).makeAsyncIterator()
            while let event = await events.next(isolation: MainActor.shared), event != .ended {
                if case .failed(let error) = event { throw BenchFailure("cannot play \(asset): \(error)") }
            }
            start = oursSink.reset()
            controller.load(PlaybackItem(uri: primary, kind: .audio), startingAt: resume)
            let backTime = try await oursSink.milliseconds(since: start, playing: primary)
            controller.stop()

            bare.uri = primary
            bare.setState(.playing)
            _ = try await floorSink.milliseconds(since: floorSink.reset(), playing: primary)
            start = floorSink.reset()
            bare.setState(.null)
            bare.uri = asset
            bare.setState(.playing)
            let floorIntoTime = try await floorSink.milliseconds(since: start, playing: asset)
            start = floorSink.reset()
            bare.setState(.null)
            bare.uri = primary
            bare.setState(.paused)
            guard bare.bus?.waitForMessage([.asyncDone], timeout: .seconds(20)) != nil else {
                throw BenchFailure("bare playbin never prerolled \(primary)")
            }
            bare.seek(to: resume, flags: [.flush, .accurate])
            guard bare.bus?.waitForMessage([.asyncDone], timeout: .seconds(20)) != nil else {
                throw BenchFailure("bare playbin's seek never landed")
            }
            bare.setState(.playing)
            let floorBackTime = try await floorSink.milliseconds(since: start, playing: primary)
            bare.setState(.null)
            if run > 0 {
                into.append(intoTime)
                back.append(backTime)
                floorInto.append(floorIntoTime)
                floorBack.append(floorBackTime)
            }
        }
        let (held, unheld, floor) = try await plainLoads(of: server.url(InterstitialStream.plainPath))
        return [
            BenchRow(measured: "load to first audio buffer, HLS without interstitials over loopback, held until its playlist is read (median of \(runs))",
                     unit: "ms", trackcast: held, peerName: "bare playbin to PLAYING (floor)", peer: floor),
            BenchRow(measured: "the same load, not held (median of \(runs))", unit: "ms", trackcast: unheld,
                     peerName: "bare playbin to PLAYING (floor)", peer: floor),
            BenchRow(measured: "interstitial's start crossed to its asset's first buffer, HLS over loopback (median of \(runs))",
                     unit: "ms", trackcast: PlaybackBenchmark.median(into), peerName: "bare playbin URI switch (floor)",
                     peer: PlaybackBenchmark.median(floorInto)),
            BenchRow(measured: "asset ended to the item's first buffer at the resume offset (median of \(runs))", unit: "ms",
                     trackcast: PlaybackBenchmark.median(back),
                     peerName: "bare playbin URI switch + ACCURATE seek (floor)", peer: PlaybackBenchmark.median(floorBack)),
        ]
    }

    /// The app's controller and a bare playbin, audio only, each with a
    /// sink that times its first buffer.
    private static func audioPlayers() throws -> (PlayerController, FirstRender, Playbin, FirstRender) {
        var configuration = PlayerConfiguration()
        configuration.decodesVideo = false
        let controller = try PlayerController(configuration: configuration)
        let oursSink = try FirstRender()
        try controller.setAudioSink(oursSink.sink)
        let bare = try PlaybackBenchmark.barePlaybin(sink: "fakesink")
        let floorSink = try FirstRender()
        bare.setAudioSink(floorSink.sink)
        return (controller, oursSink, bare, floorSink)
    }

    /// Medians of `runs` loads of `uri` to the first buffer: held until the
    /// playlist, read alongside, is read; not held; a bare playbin.
    private func plainLoads(of uri: String) async throws -> (held: Double, unheld: Double, floor: Double) {
        let (controller, oursSink, bare, floorSink) = try Self.audioPlayers()
        let fetcher = HLSInterstitialFetcher(client: HTTPClient(userAgent: "Trackcast-bench"))
        let url = URL(string: uri)!

        func timeOurs(held: Bool) async throws -> Double {
            let start = oursSink.reset()
            let id = controller.load(PlaybackItem(uri: uri, kind: .audio), holdsHLS: held)
            let read = held ? Task { @MainActor in
                _ = try? await fetcher.playlist(at: url)
                controller.releaseHold(of: id)
            } : nil
            let time = try await oursSink.milliseconds(since: start, playing: uri)
            await read?.value
            controller.stop()
            return time
        }
        func timeFloor() async throws -> Double {
            try await PlaybackBenchmark.firstBuffer(of: uri, in: bare, rendering: floorSink)
        }
        var held: [Double] = [], unheld: [Double] = [], floor: [Double] = []
        // The first round warms caches and loads plug-ins; it is not counted.
        for run in 0...runs {
            var times: [Int: Double] = [:]
            for turn in 0..<3 {
                switch (run + turn) % 3 {
                case 0: times[0] = try await timeOurs(held: true)
                case 1: times[1] = try await timeOurs(held: false)
                default: times[2] = try await timeFloor()
                }
            }
            if run > 0 {
                held.append(times[0]!)
                unheld.append(times[1]!)
                floor.append(times[2]!)
            }
        }
        return (PlaybackBenchmark.median(held), PlaybackBenchmark.median(unheld), PlaybackBenchmark.median(floor))
    }
}
