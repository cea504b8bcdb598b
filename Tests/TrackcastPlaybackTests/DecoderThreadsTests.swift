import Bindings
import Foundation
import TestSupport
import Testing

extension PlaybackEngine {
    /// Decoding threads chosen by the stream (`Sources/CTrackcastVideo/decoder-threads.c`),
    /// read back from a real avdec_h264 that playbin plugged.
    @Suite("Video decoder threads")
    @MainActor
    struct DecoderThreadsTests {
        /// avdec_h264's "max-threads" once `media` has prerolled in a playbin
        /// whose element-setup fits decoders' threads as the player's does.
        private func decoderThreads(_ media: MediaFixtures.Media) async throws -> Int32 {
            GLibPump.start()
            let playbin = try Playbin(.playbin)
            defer { _ = playbin.setState(.null) }
            playbin.setFlags("video")
            playbin.setVideoSink(try Element.make("fakesink"))
            playbin.onElementSetup { $0.fitDecoderThreadsToStream() }
            playbin.uri = try await MediaFixtures.shared.url(media).absoluteString
            _ = playbin.setState(.paused)
            #expect(playbin.state(waitingUpTo: .seconds(30)).current == .paused)
            let decoder = try #require(playbin.descendants(withProperty: "max-threads").first { $0.factoryName == "avdec_h264" })
            return try decoder.property("max-threads", as: Int32.self)
        }

        @Test("up to 1080p30's pixel rate, one thread (320×240 at 25 fps)")
        func smallStreamOneThread() async throws {
            #expect(try await decoderThreads(.h264) == 1)
        }

        @Test("beyond it, libav's thread per core (1280×720 at 120 fps)")
        func fastLargeStreamAutomatic() async throws {
            #expect(try await decoderThreads(.h264FastAndLarge) == 0)
        }
    }
}
