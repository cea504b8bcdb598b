import Testing
import TrackcastCore

/// Seconds from outside become times only through `MediaTime`, which cannot trap.
@Suite("Times from outside")
struct MediaTimeTests {
    @Test("a Duration from any Double: nil for NaN and infinities, clamped to ±1e7 s, whole nanoseconds")
    func duration() {
        #expect(Duration(clampingSeconds: .nan) == nil)
        #expect(Duration(clampingSeconds: .infinity) == nil)
        #expect(Duration(clampingSeconds: -.infinity) == nil)
        #expect(Duration(clampingSeconds: 1e300) == .seconds(10_000_000))
        #expect(Duration(clampingSeconds: -1e300) == .seconds(-10_000_000))
        #expect(Duration(clampingSeconds: .greatestFiniteMagnitude) == .seconds(10_000_000))
        #expect(Duration(clampingSeconds: 62.5) == .milliseconds(62_500))
        #expect(Duration(clampingSeconds: 1.001) == .milliseconds(1001))
        #expect(Duration(clampingSeconds: -15) == .seconds(-15))
        #expect(Duration(clampingSeconds: 0) == .zero)
    }

    @Test("a time read from a file: nil unless finite, clamped to 0…1e7 s")
    func position() {
        #expect(MediaTime.seconds(.nan) == nil)
        #expect(MediaTime.seconds(.infinity) == nil)
        #expect(MediaTime.seconds(1e300) == 10_000_000)
        #expect(MediaTime.seconds(-3) == 0)
        #expect(MediaTime.seconds(4.5) == 4.5)
    }
}
