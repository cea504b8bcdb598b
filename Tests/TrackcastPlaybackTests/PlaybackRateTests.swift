import Testing
import TrackcastPlayback

@Suite("Playback rate")
struct PlaybackRateTests {
    @Test("rates are clamped to 0.5–3×", arguments: [
        (0.1, 0.5), (0.5, 0.5), (1.25, 1.25), (3.0, 3.0), (10.0, 3.0), (-2.0, 0.5), (Double.nan, 1.0),
    ])
    func clamping(requested: Double, expected: Double) {
        #expect(PlaybackRate(requested).value == expected)
    }
}
