import Foundation
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    @Suite("Playing local files")
    @MainActor
    struct LocalPlaybackTests {
        @Test("Opus, MP3 and AAC-in-MP4 files play and their position advances", arguments: [
            MediaFixtures.Media.opus, .mp3, .aac,
        ])
        func plays(_ media: MediaFixtures.Media) async throws {
            let player = try await TestPlayer()
            let uri = try await MediaFixtures.shared.url(media).absoluteString
            let id = try await player.play(uri)
            let states = player.recorder.states(of: id)
            #expect(states.first == .loading)
            #expect(states.contains(.ready(isLive: false)))
            let start = try #require(player.controller.position)
            try await Task.sleep(for: .milliseconds(600))
            let later = try #require(player.controller.position)
            #expect(later > start)
            let asset = try #require(player.controller.asset)
            #expect(abs((asset.duration ?? .zero).seconds - media.duration.seconds) < 0.5)
            #expect(asset.hasAudio && !asset.hasVideo)
        }
    }
}
