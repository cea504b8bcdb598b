import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// The flush rules of `ResumePositionStore`, against the naive flush it
/// replaces, under concurrent recording and a slow save that sometimes fails.
@Suite("Resume position store")
struct ResumePositionStoreTests {
    static let keys: [ResumeKey] = [.episode(EpisodeID(rawValue: 1)), .episode(EpisodeID(rawValue: 2)),
                                    .uri(URL(string: "file:///tmp/talk.opus")!)]
    static let runs = 200

    @Test("over many randomised runs the naive flush loses and double-sends positions; the store does neither")
    func randomisedFlushes() async throws {
        var naive = Outcome()
        var store = Outcome()
        for seed in 1...UInt64(Self.runs) {
            naive.add(await Self.run(seed: seed) { NaiveFlusher(save: $0) })
            store.add(await Self.run(seed: seed) { ResumePositionStore(save: $0) })
        }
        print("resume flush over \(Self.runs) runs: naive lost in \(naive.lost), sent twice in \(naive.doubled); "
              + "store lost in \(store.lost), sent twice in \(store.doubled), \(store.failedSaves) failed saves merged back")
        // The bug the store exists for must show in the naive version, or
        // this test could not tell the two apart.
        #expect(naive.lost > 0, "the naive flush lost nothing in \(Self.runs) runs")
        #expect(naive.doubled > 0, "the naive flush sent nothing twice in \(Self.runs) runs")
        #expect(store.lost == 0, "lost in \(store.lost) runs")
        #expect(store.doubled == 0, "sent twice in \(store.doubled) runs")
        #expect(store.failedSaves > 0, "the sink never failed: the merge-back went untested")
    }

    @Test("a failed save is merged back without overwriting a position recorded during it")
    func failedSaveKeepsNewer() async throws {
        let sink = GatedSink()
        let store = ResumePositionStore { try await sink.save($0) }
        let key = Self.keys[0]
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        await store.record(key, position: 10, duration: 100, at: t0)
        await store.record(Self.keys[1], position: 3, duration: nil, at: t0)
        let flush = Task { await store.flush() }
        await sink.waitUntilSaving()
        #expect(await store.pendingPosition(for: key) == nil, "the batch must leave pending before the save suspends")
        #expect(await store.unsavedPosition(for: key)?.position == 10, "the batch in flight must stay readable until it lands")
        await store.record(key, position: 11, duration: 100, at: t0.addingTimeInterval(1))
        await sink.finish(failing: true)
        #expect(await flush.value == false)
        #expect(await store.pendingPosition(for: key)?.position == 11)
        #expect(await store.pendingPosition(for: Self.keys[1])?.position == 3)

        let retry = Task { await store.flush() }
        await sink.waitUntilSaving()
        await sink.finish(failing: false)
        #expect(await retry.value)
        #expect(await sink.saved.map(\.position.position).sorted() == [3, 11])
        #expect(await store.hasPending == false)
    }

    @Test("a position forgotten (played to the end) during a failing save does not come back")
    func forgetDuringSave() async throws {
        let sink = GatedSink()
        let store = ResumePositionStore { try await sink.save($0) }
        let key = Self.keys[2]
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        await store.record(key, position: 50, duration: 60, at: t0)
        let flush = Task { await store.flush() }
        await sink.waitUntilSaving()
        let forgetting = Task { await store.forget(key, at: t0.addingTimeInterval(1)) }
        // Forgetting must have begun before the save fails (it then waits for
        // the save): the failed batch's merge-back is what must leave it out.
        for _ in 0..<10_000 where await store.unsavedPosition(for: key) != nil { await Task.yield() }
        try #require(await store.unsavedPosition(for: key) == nil, "forget never ran while the save was under way")
        await sink.finish(failing: true)
        await forgetting.value
        _ = await flush.value
        #expect(await store.pendingPosition(for: key) == nil)
    }

    @Test("after a long pause playback starts a few seconds earlier; the end counts as played")
    func policy() {
        let policy = ResumePolicy(longPause: 300, rewind: 5)
        let saved = Date(timeIntervalSince1970: 1_700_000_000)
        let position = ResumePosition(position: 100, duration: 3600, updated: saved)
        #expect(policy.start(from: position, now: saved.addingTimeInterval(60)) == 100)
        #expect(policy.start(from: position, now: saved.addingTimeInterval(600)) == 95)
        #expect(policy.start(from: 3, pausedFor: 600) == 0)
        #expect(!ResumePolicy.isFinished(position: 3560, duration: 3600))
        #expect(ResumePolicy.isFinished(position: 3571, duration: 3600))
        // A short clip: the last 5 %, not the last 30 s.
        #expect(!ResumePolicy.isFinished(position: 40, duration: 60))
        #expect(ResumePolicy.isFinished(position: 57.5, duration: 60))
        #expect(!ResumePolicy.isFinished(position: 57.5, duration: nil))
    }

    // MARK: The randomised run

    struct Outcome {
        var lost = 0
        var doubled = 0
        var failedSaves = 0

        mutating func add(_ run: Outcome) {
            lost += run.lost
            doubled += run.doubled
            failedSaves += run.failedSaves
        }
    }

    /// One recorder and two flushers at once against a sink that is slow and
    /// fails a quarter of its saves; then one last flush with the sink
    /// healthy. Counts a run as losing if any key's newest recorded position
    /// did not reach the sink, and as double-sending if any recording reached
    /// it twice.
    static func run<F: PositionFlusher>(seed: UInt64, _ make: (@escaping ResumePositionStore.Save) -> F) async -> Outcome {
        let sink = FlakySink(seed: seed)
        let flusher = make { try await sink.save($0) }
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let newest = await withTaskGroup(of: [ResumeKey: TimeInterval].self) { group in
            group.addTask {
                var random = SplitMix64(seed: seed ^ 0x9E37)
                var newest: [ResumeKey: TimeInterval] = [:]
                for step in 0..<40 {
                    let key = keys[Int(random.next() % UInt64(keys.count))]
                    await flusher.record(key, position: Double(step), duration: nil,
                                         at: base.addingTimeInterval(Double(step)))
                    newest[key] = Double(step)
                    if random.next() % 3 == 0 {
                        try? await Task.sleep(for: .microseconds(Int(random.next() % 400)))
                    } else {
                        await Task.yield()
                    }
                }
                return newest
            }
            for flusherIndex in 0..<2 {
                group.addTask {
                    var random = SplitMix64(seed: seed &+ UInt64(flusherIndex) &* 7919)
                    for _ in 0..<12 {
                        _ = await flusher.flush()
                        try? await Task.sleep(for: .microseconds(Int(random.next() % 300)))
                    }
                    return [:]
                }
            }
            var newest: [ResumeKey: TimeInterval] = [:]
            for await result in group { newest.merge(result) { $1 } }
            return newest
        }
        await sink.heal()
        _ = await flusher.flush()

        let delivered = await sink.delivered
        var stored: [ResumeKey: ResumePosition] = [:]
        for update in delivered where stored[update.key].map({ $0.updated < update.position.updated }) ?? true {
            stored[update.key] = update.position
        }
        var outcome = Outcome(failedSaves: await sink.failures)
        if newest.contains(where: { stored[$0.key]?.position != $0.value }) { outcome.lost = 1 }
        let sends = Dictionary(grouping: delivered) { "\($0.key)@\($0.position.updated.timeIntervalSince1970)" }
        if sends.values.contains(where: { $0.count > 1 }) { outcome.doubled = 1 }
        return outcome
    }
}

protocol PositionFlusher: Actor {
    func record(_ key: ResumeKey, position: TimeInterval, duration: TimeInterval?, at date: Date)
    func flush() async -> Bool
}

extension ResumePositionStore: PositionFlusher {}

/// The flush as first written: it sends what is pending and clears it once
/// the save has returned. Whatever was recorded during the save is cleared
/// with it, and two flushes at once both send the same positions.
actor NaiveFlusher: PositionFlusher {
    private let save: ResumePositionStore.Save
    private var pending: [ResumeKey: ResumePosition] = [:]

    init(save: @escaping ResumePositionStore.Save) { self.save = save }

    func record(_ key: ResumeKey, position: TimeInterval, duration: TimeInterval?, at date: Date) {
        pending[key] = ResumePosition(position: position, duration: duration, updated: date)
    }

    func flush() async -> Bool {
        guard !pending.isEmpty else { return true }
        do {
            try await save(pending.map { ResumePositionUpdate(key: $0.key, position: $0.value.position,
                                                              duration: $0.value.duration, updated: $0.value.updated) })
            pending.removeAll()
            return true
        } catch {
            return false
        }
    }
}

/// A save that takes a random short while and fails a quarter of the time
/// until healed; it keeps every batch it accepted.
actor FlakySink {
    private var random: SplitMix64
    private var failing = true
    private(set) var delivered: [ResumePositionUpdate] = []
    private(set) var failures = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    func heal() { failing = false }

    func save(_ updates: [ResumePositionUpdate]) async throws {
        let fails = failing && random.next() % 4 == 0
        try? await Task.sleep(for: .microseconds(Int(random.next() % 500)))
        if fails {
            failures += 1
            throw SaveFailed()
        }
        delivered += updates
    }
}

/// A save that waits until the test lets it finish, failing or not.
actor GatedSink {
    private var gate: CheckedContinuation<Bool, Never>?
    private(set) var saved: [ResumePositionUpdate] = []

    func save(_ updates: [ResumePositionUpdate]) async throws {
        let fails = await withCheckedContinuation { gate = $0 }
        if fails { throw SaveFailed() }
        saved += updates
    }

    func waitUntilSaving() async {
        while gate == nil { try? await Task.sleep(for: .milliseconds(1)) }
    }

    func finish(failing: Bool) {
        gate?.resume(returning: failing)
        gate = nil
    }
}

struct SaveFailed: Error {}
