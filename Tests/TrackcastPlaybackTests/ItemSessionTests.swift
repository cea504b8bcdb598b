import Testing
import TrackcastCore
@testable import TrackcastPlayback

@Suite("An item's session")
@MainActor
struct ItemSessionTests {
    private func session() -> ItemSession {
        let id = PlaybackItemID.next()
        return ItemSession(id: id, item: PlaybackItem(uri: "file:///nowhere.opus", kind: .audio), subtitleFile: nil,
                           wantsPlaying: true, start: nil,
                           observers: ItemObservers(itemID: id, interval: .seconds(1)) { (nil, nil, 1) })
    }

    @Test("a task added after the session closed is cancelled at once: nothing else would cancel it (a second-opinion probe that woke just before the item was replaced)")
    func taskAfterCloseIsCancelled() {
        let closed = session()
        closed.close()
        let late = Task { @MainActor in _ = try? await Task.sleep(for: .seconds(60)) }
        closed.addTask(late)
        #expect(late.isCancelled)
        late.cancel()

        let open = session()
        let kept = Task { @MainActor in _ = try? await Task.sleep(for: .seconds(60)) }
        open.addTask(kept)
        #expect(!kept.isCancelled)
        open.close()
        #expect(kept.isCancelled)
    }
}
