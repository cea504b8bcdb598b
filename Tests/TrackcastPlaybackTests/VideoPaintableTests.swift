import Bindings
import Foundation
import TestSupport
import Testing

extension PlaybackEngine {
    /// The video sink into GTK, fed by a real playbin decoding generated clips.
    @Suite("Video into a GdkPaintable")
    @MainActor
    struct VideoPaintableTests {
        /// A playbin showing video only, into `paintable`.
        private func playbin(_ media: MediaFixtures.Media, into paintable: VideoPaintable) async throws -> Playbin {
            GLibPump.start()
            let playbin = try Playbin(.playbin)
            playbin.setFlags("video")
            playbin.setAudioSink(try Element.make("fakesink"))
            playbin.setVideoSink(paintable.sink)
            playbin.uri = try await MediaFixtures.shared.url(media).absoluteString
            return playbin
        }

        private func waitFor(_ what: Comment, _ condition: @MainActor () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while !condition() {
                try #require(ContinuousClock.now < deadline, what)
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        /// Resident memory of this process, from /proc/self/statm.
        private func residentBytes() throws -> Int {
            let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
            return try #require(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        @Test("a 60 fps source and a main thread that stalls: frames are dropped, memory stays flat")
        func slowMainThread() async throws {
            let paintable = try VideoPaintable(convertsOnGPU: false)
            let playbin = try await playbin(.video60fps, into: paintable)
            defer { _ = playbin.setState(.null) }
            _ = playbin.setState(.playing)
            try await waitFor("no frame arrived") { paintable.frame != nil }

            // The main thread sleeps 200 ms at a time (12 frames' worth),
            // then lets GLib run once: every frame but the newest must go.
            var baseline = 0
            for round in 0..<40 {
                usleep(200_000)
                await Task.yield()
                try await Task.sleep(for: .milliseconds(5))
                if round == 5 { baseline = try residentBytes() }
            }
            let growth = try residentBytes() - baseline
            let (received, dropped) = (paintable.framesReceived, paintable.framesDropped)
            print("60 fps sink, stalling main thread: \(received) received, \(dropped) dropped, RSS +\(growth / 1024) KiB")
            #expect(received > 200, "the source should have kept delivering")
            #expect(dropped > received / 2, "frames the main thread had no time for must be dropped")
            // 320×240 BGRA is 300 KiB a frame: the ~350 frames of the
            // measured stretch, kept, would be over 100 MB.
            #expect(growth < 16 << 20, "memory grew by \(growth / 1024) KiB")
        }

        @Test("an anamorphic frame is drawn at its display aspect")
        func pixelAspect() async throws {
            let paintable = try VideoPaintable(convertsOnGPU: false)
            let playbin = try await playbin(.anamorphic, into: paintable)
            defer { _ = playbin.setState(.null) }
            _ = playbin.setState(.paused)
            try await waitFor("no preroll frame") { paintable.frame != nil }
            let frame = try #require(paintable.frame)
            #expect(frame.width == 720 && frame.height == 576)
            #expect(abs(frame.pixelAspect - 64.0 / 45.0) < 0.001)
            #expect(paintable.intrinsicSize == (1024, 576))
        }

        @Test("paused keeps the last frame; cleared, it is black with no size")
        func pauseAndClear() async throws {
            let paintable = try VideoPaintable(convertsOnGPU: false)
            let playbin = try await playbin(.video, into: paintable)
            defer { _ = playbin.setState(.null) }
            _ = playbin.setState(.playing)
            try await waitFor("no frame arrived") { paintable.framesReceived > 5 }
            _ = playbin.setState(.paused)
            try await Task.sleep(for: .milliseconds(300))
            #expect(paintable.frame != nil, "a paused video shows its last frame")
            _ = playbin.setState(.null)
            paintable.clear()
            try await Task.sleep(for: .milliseconds(100))
            #expect(paintable.frame == nil)
            #expect(paintable.intrinsicSize == (0, 0))
        }
    }
}
