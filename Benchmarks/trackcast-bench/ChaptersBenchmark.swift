import Bindings
import Foundation
import TestSupport
import TrackcastCore
import TrackcastLibrary
import TrackcastPlayback

/// A streamed episode's own chapters against its first audio buffer, in the
/// same load: an MP3's ID3 CHAP frames come with the prerolled pipeline's
/// tags and are read as the app reads them (`ID3Chapters.read(frames:)`);
/// an M4A's (`moov` last, as most encoders write it) by Range requests
/// (`RemoteMP4Chapters`), started at the load as `ChapterTracker` starts
/// them. Goal: chapters before the first buffer, or within 1.5× of it.
@MainActor
struct ChaptersBenchmark {
    var runs = 7

    func run() async throws -> [BenchRow] {
        GStreamer.initialize()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-chapters-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let marks = [ChapteredMedia.Mark(0, "Opening"), .init(20, "Middle"), .init(40, "End")]
        let server = try TestHTTPServer()
        defer { server.stop() }
        var rows: [BenchRow] = []
        for (container, type) in [(ChapteredMedia.Container.mp3, "audio/mpeg"), (.m4a, "audio/mp4")] {
            let file = folder.appendingPathComponent("episode.\(container)")
            try await ChapteredMedia.write(container, seconds: 60, chapters: marks, to: file)
            let bytes = try Data(contentsOf: file)
            server.route("/episode.\(container)", .serve(bytes, contentType: type))
            let uri = server.url("/episode.\(container)")
            let (chapters, firstBuffer, fetched) = try await measure(uri, container: container)
            let label = container == .mp3 ? "streamed MP3, ID3 CHAP" : "streamed M4A, moov last"
            rows.append(BenchRow(measured: "load to chapters known, \(label) (median of \(runs))", unit: "ms",
                                 trackcast: chapters, peerName: "first audio buffer, same load", peer: firstBuffer))
            if container == .m4a {
                rows.append(BenchRow(measured: "bytes fetched for the chapters, \(label)", unit: "KB",
                                     trackcast: Double(fetched) / 1024, peerName: "the whole file",
                                     peer: Double(bytes.count) / 1024))
            }
        }
        return rows
    }

    private func measure(_ uri: String, container: ChapteredMedia.Container) async throws
        -> (chapters: Double, firstBuffer: Double, fetched: Int) {
        var configuration = PlayerConfiguration()
        configuration.decodesVideo = false
        let controller = try PlayerController(configuration: configuration)
        let sink = try FirstRender()
        try controller.setAudioSink(sink.sink)
        let remote = RemoteMP4Chapters(client: HTTPClient(userAgent: "Trackcast-bench"))
        var chapterTimes: [Double] = []
        var bufferTimes: [Double] = []
        var fetched = 0
        // The first load warms caches and loads plug-ins; it is not counted.
        for run in 0...runs {
            let start = sink.reset()
            let id = controller.load(PlaybackItem(uri: uri, kind: .audio))
            let chapters: Double
            if container == .m4a {
                let reading = Task { await remote.read(URL(string: uri)!) }
                let found = await reading.value
                guard found.chapters.count == 3 else { throw BenchFailure("\(found.chapters.count) chapters in \(uri)") }
                chapters = (ContinuousClock.now - start) / .milliseconds(1)
                fetched = found.bytesFetched
            } else {
                for await state in await controller.store.updates() where state.itemID == id {
                    if case .ready = state.phase { break }
                    if case .failed(let error) = state.phase { throw BenchFailure("cannot load \(uri): \(error)") }
                }
                let frames = controller.asset?.id3ChapterFrames ?? []
                let found = await Task.detached { ID3Chapters.read(frames: frames) }.value
                guard found.count == 3 else { throw BenchFailure("\(found.count) chapters in \(uri)") }
                chapters = (ContinuousClock.now - start) / .milliseconds(1)
            }
            let firstBuffer = try await sink.milliseconds(since: start, playing: uri)
            controller.stop()
            if run > 0 {
                chapterTimes.append(chapters)
                bufferTimes.append(firstBuffer)
            }
        }
        return (median(chapterTimes), median(bufferTimes), fetched)
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
