import Bindings
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Buffering messages", .needs("ffmpeg"))
struct BufferingMessageTests {
    /// GStreamer 1.22's downloadbuffer can post a stale low figure after its
    /// 100 %: one in about 800 loads, too rare to wait for, so the test posts
    /// that late message from the real element after a real download.
    @Test("a downloadbuffer's late low figure is read as its current one")
    func lateDownloadbufferFigure() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "buffering-\(UUID().uuidString).opus")
        defer { try? FileManager.default.removeItem(at: file) }
        try await ChapteredMedia.write(.opus, seconds: 5, chapters: [], to: file)
        let server = try TestHTTPServer()
        server.route("/tone.opus", .serve(try Data(contentsOf: file), contentType: "audio/ogg"))

        let playbin = try Playbin(.playbin)
        playbin.setFlags("audio+buffering+download")
        playbin.setAudioSink(try Element.make("fakesink"))
        let downloadBufferName = Mutex<String?>(nil)
        playbin.onElementSetup { element in
            if element.factoryName == "downloadbuffer" { downloadBufferName.withLock { $0 = element.name } }
        }
        playbin.uri = server.url("/tone.opus")
        defer { _ = playbin.setState(.null) }
        _ = playbin.setState(.paused)
        let bus = try #require(playbin.bus)

        var heard: [Int] = []
        while heard.last != 100, let message = bus.waitForMessage([.buffering, .error], timeout: .seconds(10)) {
            #expect(message.kind == .buffering, "\(message.failure?.error.message ?? "")")
            guard let percent = message.bufferingPercent else { break }
            heard.append(percent)
        }
        try #require(heard.last == 100, "buffering figures: \(heard)")
        let name = try #require(downloadBufferName.withLock { $0 }, "no downloadbuffer was plugged")
        let element = try #require(playbin.child(named: name))
        #expect(element.bufferingPercent == 100)

        element.post(.buffering(percent: 2, from: element))
        var late: Message?
        while late == nil, let message = bus.waitForMessage([.buffering], timeout: .seconds(5)) {
            if let percent = message.bufferingPercent, percent < 100 { late = message }
        }
        let stale = try #require(late, "the posted figure never arrived")
        #expect(stale.currentBufferingPercent == 100)
    }
}
