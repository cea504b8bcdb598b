import Foundation
import TestSupport
import Testing
import TrackcastCore
@testable import TrackcastUI

/// The owner of what plays refuses what GStreamer could open but a podcast
/// player must not (a camera, a socket, a file descriptor), whichever way
/// in the address came: the last of the checks, where every way in ends.
@Suite("The owner refuses what is not a file or a web address")
@MainActor
struct NowPlayingRefusalTests {
    @Test("a camera, a socket or a descriptor given to the owner loads nothing and says why", arguments: [
        "v4l2:///dev/video0", "udp://0.0.0.0:5004", "fd://0",
    ])
    func refused(uri: String) async throws {
        GLibPump.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-refusal-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let owner = try await NowPlaying.inProcess(libraryIn: folder)
        var messages: [String] = []
        owner.onMessage { message, _ in messages.append(message) }

        owner.play(NowPlaying.Item(uri: uri, title: "refused", showTitle: nil, kind: .audio, episode: nil, show: nil))
        for _ in 0..<100 where messages.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(messages == [tr("This cannot be played: Trackcast plays files and web addresses only")])
        #expect(owner.player?.currentItemID == nil, "the player loaded \(uri)")
        #expect(owner.item == nil)
    }
}
