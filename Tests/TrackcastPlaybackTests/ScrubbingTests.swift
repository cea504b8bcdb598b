import Foundation
import Testing
import TestSupport
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    @Suite("Scrubbing")
    @MainActor
    struct ScrubbingTests {
        @Test("a drag's fast seeks keep one in flight; the release lands exactly where it was let go")
        func fastSeeksCoalesce() async throws {
            let file = try await MediaFixtures.shared.url(.video)
            let player = try await TestPlayer()
            let id = try await player.play(file.absoluteString)
            let landed = player.controller.seekCompletions(of: id)
            let before = player.controller.seeksMade
            // Twenty drag steps in one main-loop turn: none of them can have
            // landed before the next is asked for.
            for step in 1...20 { player.controller.seek(to: .milliseconds(step * 400), mode: .fast) }
            player.controller.seek(to: .milliseconds(7_300), mode: .exact)
            let first = await player.first(of: landed, within: .seconds(10))
            #expect(first != nil, "no seek landed")
            let made = player.controller.seeksMade
            // The first step goes at once; the rest wait, newest first, and
            // the release's exact seek replaces them all.
            #expect(made.fast - before.fast == 1, "fast seeks made: \(made.fast - before.fast)")
            #expect(made.exact - before.exact == 1, "exact seeks made: \(made.exact - before.exact)")
            // Exact: where it was let go, not a key frame (every 2 s here).
            let position = try #require(first)
            #expect(abs(position.seconds - 7.3) < 0.1, "landed at \(position)")
        }
    }
}
