import Foundation
import TestSupport
import Testing
import TrackcastCore
@testable import TrackcastUI

/// The sleep timer against the real player (GStreamer, into a fakesink) in
/// this process, where the order of its tasks can be arranged.
@Suite("The sleep timer", .needs("ffmpeg"))
@MainActor
struct SleepTimerTests {
    @Test("an end-of-chapter timer turned off as its chapter ends neither pauses nor stops the timer set after it")
    func staleChapterEndFiresNothing() async throws {
        GLibPump.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-sleep-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("chaptered.mp3")
        try await ChapteredMedia.write(.mp3, seconds: 20, chapters: [.init(0, "One"), .init(2, "Two")], to: file)
        let owner = try await NowPlaying.inProcess(libraryIn: folder)
        defer { owner.stop() }

        owner.play(NowPlaying.Item(uri: file.absoluteString, title: "chaptered", showTitle: nil, kind: .audio,
                                   episode: nil, show: nil))
        try #require(await Self.waitUntil { owner.phase == .playing && owner.chapters.list.listed.count == 2 })
        try #require(owner.position < .seconds(1.5), "played past the first chapter before the timer could be set")

        // Asked for before the timer's own, so this hears the crossing first
        // and turns the timer off while the timer's task, woken by the same
        // crossing, waits its turn on the main actor.
        let crossings = owner.boundaryCrossings([.seconds(2)])
        owner.sleepTimer.start(.endOfChapter)
        try #require(owner.sleepTimer.boundary == .seconds(2))
        let listener = Task {
            for await _ in crossings {
                owner.sleepTimer.cancel()
                owner.sleepTimer.start(.minutes(30))
                return true
            }
            return false
        }
        try #require(await listener.value, "the chapter's end was never crossed")
        // The stale task has run by now: it was queued just behind the listener.
        try await Task.sleep(for: .milliseconds(300))
        #expect(owner.sleepTimer.mode == .minutes(30), "the timer set after the chapter's end was stopped")
        #expect(owner.phase == .playing, "paused by a timer that had been turned off")
    }

    private static func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 where !condition() { try? await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }
}
