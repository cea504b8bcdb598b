import Testing
import TrackcastCore

@Suite("Stream limits (the data saver)")
struct StreamLimitsTests {
    @Test("0 and negative numbers are no cap; kbit/s become bit/s; an overflowing number is no cap, not a trap")
    func fromPreferences() {
        #expect(StreamLimits(height: 0, kilobitsPerSecond: 0) == StreamLimits())
        #expect(StreamLimits(height: -5, kilobitsPerSecond: -1) == StreamLimits())
        #expect(StreamLimits(height: 720, kilobitsPerSecond: 1500) == StreamLimits(maximumHeight: 720, maximumBitrate: 1_500_000))
        #expect(StreamLimits(height: 480, kilobitsPerSecond: .max).maximumBitrate == nil)
    }

    @Test("metered caps apply only while metered, and never loosen the normal ones")
    func meteredChoice() {
        let normal = StreamLimits(maximumHeight: 360, maximumBitrate: nil)
        let metered = StreamLimits(maximumHeight: 480, maximumBitrate: 800_000)
        #expect(StreamLimits.inForce(normal: normal, metered: metered, isMetered: false) == normal)
        #expect(StreamLimits.inForce(normal: normal, metered: metered, isMetered: true)
                == StreamLimits(maximumHeight: 360, maximumBitrate: 800_000))
        #expect(StreamLimits.inForce(normal: StreamLimits(), metered: StreamLimits(), isMetered: true) == StreamLimits())
    }

    @Test("a height cap becomes the bandwidth of the best variant no taller; none that short: the shortest; no heights: the bitrate cap")
    func heightAsBandwidth() {
        let ladder = [StreamVariant(bandwidth: 200_000, height: 360), StreamVariant(bandwidth: 800_000, height: 720),
                      StreamVariant(bandwidth: 3_000_000, height: 1080), StreamVariant(bandwidth: 64_000, height: nil)]
        #expect(StreamLimits(maximumHeight: 720).bitrateCap(among: ladder) == 800_000)
        #expect(StreamLimits(maximumHeight: 1000).bitrateCap(among: ladder) == 800_000)
        #expect(StreamLimits(maximumHeight: 720, maximumBitrate: 500_000).bitrateCap(among: ladder) == 500_000)
        #expect(StreamLimits(maximumHeight: 240).bitrateCap(among: ladder) == 200_000)
        #expect(StreamLimits(maximumHeight: 4320).bitrateCap(among: ladder) == 3_000_000)
        #expect(StreamLimits(maximumBitrate: 1_000_000).bitrateCap(among: ladder) == 1_000_000)
        #expect(StreamLimits().bitrateCap(among: ladder) == nil)
        // Audio-only ladders and unknown ones leave the height cap to the bitrate cap.
        #expect(StreamLimits(maximumHeight: 480, maximumBitrate: 96_000).bitrateCap(among: [StreamVariant(bandwidth: 64_000, height: nil)]) == 96_000)
        #expect(StreamLimits(maximumHeight: 480).bitrateCap(among: []) == nil)
    }
}
