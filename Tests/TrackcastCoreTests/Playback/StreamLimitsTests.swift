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
}
